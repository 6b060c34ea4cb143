"""The benchmark workbench: fastparse against every installed peer, on the
generated and the real corpora, timed with pyperf, memory measured in fresh
processes, outputs validated, raw results written once and rendered to tables
and plots. Entry point: `python -m fastparse.bench` (see cli.py)."""


def main() -> int:
    """Console-script entry point (fastparse-bench)."""
    from .cli import main as cli_main
    return cli_main()
