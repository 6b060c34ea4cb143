"""The compiled program's vocabulary. Mirrors fastparse/_core/select.h (a test checks they agree).

A program is native-endian int32 words followed by a byte pool of strings:

    header   MAGIC, code_len (words), root (offset of the top LIST), flags,
             n_has, n_nthof, n_tags, tag_table, n_strings, string_table, non_ascii
    tables   tag_table: per tag slot, its string index and its id in the engine's tag table
             (fastparse._core._known_tag; 0 for a name the table lacks: the run looks
             it up among the names the document interned);
             string_table: (byte offset into the pool, byte length) per string
    nodes    LIST  count off...                 any of the complex selectors matches
             COMPLEX ncomp off0 (comb off)*     compounds right to left, comb joins k and k+1
             COMPOUND ntests test...            all tests pass
    tests    see the T_* codes below; word offsets are absolute (index into the program)
"""

MAGIC = 0x31535046  # b"FPS1" read as a little-endian int32
HEADER_WORDS = 11
H_MAGIC, H_CODE_LEN, H_ROOT, H_FLAGS, H_NHAS, H_NNTHOF, H_NTAGS, H_TAGS, H_NSTR, H_STRS, H_NONASCII = range(11)

F_SIBLINGS = 1      # needs per-parent child positions / previous siblings
F_OF_TYPE = 2       # ... and per-tag positions among siblings
F_FORMS = 4         # resolves the form tag ids (option selectedness, radio groups)
F_FORM_TABLES = 8   # asks form owners of the whole document (default buttons, radio groups)
F_SUBSTRING = 16    # looks for a string inside values or text ($=, *=, :contains): a document
                    # in Shift_JIS, Big5 or GBK runs it on its UTF-8 twin (py_twin.c)

# H_NONASCII's bits: the strings hold non-ASCII characters; among them U+FFFD, which a
# UTF-8 document's invalid bytes decode to: where it has such bytes, it runs on its twin
NONASCII_ANY = 1
NONASCII_REPLACEMENT = 2

OP_LIST, OP_COMPLEX, OP_COMPOUND = 1, 2, 3

T_TAG = 10          # slot
T_ID = 11           # string
T_CLASS = 12        # string
T_ATTR = 13         # op flags name_string value_string
T_NOT = 14          # list
T_IS = 15           # list
T_HAS = 16          # combinator compound slot
T_NTH = 17          # flags a b list(-1) slot(-1)
T_ROOT = 18
T_SCOPE = 19
T_EMPTY = 20
T_DEFINED = 21
T_CONTAINS = 22     # count string...
T_FALSE = 23
T_OPTION_SELECTED = 24  # option's selectedness (part of :checked)
T_RADIO_KEPT = 25       # a checked radio not unchecked by a later one of its group (part of :checked)
T_CONTAINS_OWN = 26     # count string...: like T_CONTAINS, over the element's own text nodes
T_LANG = 27             # count range...: :lang(), any of the language ranges
T_DEFAULT_BUTTON = 28   # the first submit button its form owner has (part of :default)
T_RADIO_UNCHECKED = 29  # a named radio whose group has no checked radio (part of :indeterminate)
T_IN_RANGE = 30         # a min/max input whose value is within them (:in-range)
T_OUT_OF_RANGE = 31     # ... whose value underflows or overflows them (:out-of-range)
T_DIR = 32              # direction table: :dir(); the table string is DIR_TABLE until a legacy
                        # document's codec replaces it by 128 letters for bytes 0x80-0xFF
T_NAMESPACE = 33        # mask: the element is in one of these namespaces (NS_* bits)
T_VALUE_EMPTY = 34      # a text-like input or textarea whose value is empty (:placeholder-shown)
T_VALID = 35            # a candidate control satisfying its constraints; a form or fieldset without
                        # an invalid control (:valid)
T_INVALID = 36          # ... failing one; a form or fieldset with one (:invalid)

TEST_WORDS = {T_TAG: 2, T_ID: 2, T_CLASS: 2, T_ATTR: 5, T_NOT: 2, T_IS: 2, T_HAS: 4, T_NTH: 6,
              T_ROOT: 1, T_SCOPE: 1, T_EMPTY: 1, T_DEFINED: 1, T_FALSE: 1,
              T_OPTION_SELECTED: 1, T_RADIO_KEPT: 1, T_DEFAULT_BUTTON: 1, T_RADIO_UNCHECKED: 1,
              T_IN_RANGE: 1, T_OUT_OF_RANGE: 1, T_DIR: 3, T_NAMESPACE: 2,
              T_VALUE_EMPTY: 1, T_VALID: 1, T_INVALID: 1}  # T_CONTAINS(_OWN), T_LANG: 2 + count

COMB_DESCENDANT, COMB_CHILD, COMB_NEXT, COMB_LATER = 1, 2, 3, 4
COMBINATOR_CODES = {" ": COMB_DESCENDANT, ">": COMB_CHILD, "+": COMB_NEXT, "~": COMB_LATER}

A_EXISTS, A_EQUALS, A_INCLUDES, A_DASH, A_PREFIX, A_SUFFIX, A_SUBSTRING = range(7)
ATTR_OPS = {"": A_EXISTS, "=": A_EQUALS, "~=": A_INCLUDES, "|=": A_DASH,
            "^=": A_PREFIX, "$=": A_SUFFIX, "*=": A_SUBSTRING}
AF_ICASE = 1        # ASCII case-insensitive value (the `i` flag)
AF_ICASE_HTML = 2   # ... only on HTML elements (HTML Standard's list of attributes)

DIR_LTR, DIR_RTL = 1, 2
DIR_TABLE = b"\0dir"   # the placeholder; never a real string (a NUL cannot be typed in a selector)

NS_HTML, NS_SVG, NS_MATHML = 1, 2, 4
NS_ALL = NS_HTML | NS_SVG | NS_MATHML

NTH_LAST = 1
NTH_OF_TYPE = 2
