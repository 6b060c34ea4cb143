"""The guess at the encoding of an undeclared page that is not UTF-8
(fastparse/_encoding_guess.py): right for UTF-8 with a stray byte and for CJK, Cyrillic,
Greek, Hebrew, Arabic and Thai text, and windows-1252, as before, for Latin scripts."""
from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

import fastparse as fp
from fastparse import _core
from fastparse._encoding_guess import guess
from fastparse.encoding import detect, lookup

CORPORA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpora"

# Sentences written for these tests, a page's worth of running text in each language.
TEXTS = {
    "ja": "東京の天気は今日も晴れです。明日は雨が降るかもしれませんので、傘を持って出かけてください。"
          "新しい商品が入荷しました。詳しくはこちらをご覧ください。",
    "zh": "今天北京的天气很好，我们一起去公园散步吧。新产品已经上市，欢迎大家前来购买。"
          "请点击这里查看详细信息，我们会尽快回复您的问题。",
    "zh-hant": "今天台北的天氣很好，我們一起去公園散步吧。新產品已經上市，歡迎大家前來購買。"
               "請點擊這裡查看詳細資訊，我們會盡快回覆您的問題。",
    "ko": "오늘 서울의 날씨는 맑습니다. 내일은 비가 올 수도 있으니 우산을 가지고 나가세요. "
          "새로운 상품이 입고되었습니다. 자세한 내용은 여기를 확인하세요.",
    "ru": "Сегодня в Москве хорошая погода. Завтра может пойти дождь, поэтому возьмите с собой зонт. "
          "Новые товары уже поступили в продажу, подробности смотрите на нашем сайте.",
    "uk": "Сьогодні в Києві гарна погода. Завтра може піти дощ, тому візьміть із собою парасольку. "
          "Нові товари вже надійшли у продаж, подробиці дивіться на нашому сайті.",
    "bg": "Днес времето в София е хубаво. Утре може да вали дъжд, затова вземете чадър със себе си. "
          "Новите стоки вече са в продажба, подробности вижте на нашия сайт.",
    "el": "Σήμερα ο καιρός στην Αθήνα είναι καλός. Αύριο μπορεί να βρέξει, γι αυτό πάρτε μαζί σας ομπρέλα. "
          "Τα νέα προϊόντα είναι ήδη διαθέσιμα, δείτε λεπτομέρειες στην ιστοσελίδα μας.",
    "he": "היום מזג האוויר בתל אביב נעים. מחר עלול לרדת גשם, לכן קחו איתכם מטריה. "
          "המוצרים החדשים כבר זמינים למכירה, פרטים נוספים באתר שלנו.",
    "ar": "الطقس اليوم في القاهرة جميل جدا. قد تمطر غدا، لذلك خذوا معكم مظلة. "
          "وصلت المنتجات الجديدة إلى المتجر، والتفاصيل على موقعنا.",
    "th": "วันนี้อากาศที่กรุงเทพดีมาก พรุ่งนี้ฝนอาจจะตก ดังนั้นกรุณาพกร่มไปด้วย "
          "สินค้าใหม่มาถึงแล้ว ดูรายละเอียดได้ที่เว็บไซต์ของเรา",
    "fr": "Aujourd'hui il fait très beau à Paris. Demain il pourrait pleuvoir, alors prenez votre "
          "parapluie. Les nouveaux produits sont arrivés, voyez les détails sur notre site. Crème brûlée.",
    "de": "Heute ist das Wetter in München schön. Morgen könnte es regnen, also nehmen Sie einen "
          "Regenschirm mit. Neue Produkte sind eingetroffen, Einzelheiten auf unserer Webseite. Grüße.",
    "pl": "Dzisiaj w Warszawie jest ładna pogoda. Jutro może padać deszcz, więc weźcie ze sobą parasol. "
          "Nowe produkty już są w sprzedaży, szczegóły znajdziecie na naszej stronie. Zażółć gęślą jaźń.",
    "tr": "Bugün İstanbul'da hava çok güzel. Yarın yağmur yağabilir, bu yüzden şemsiyenizi yanınıza alın. "
          "Yeni ürünler satışa çıktı, ayrıntılar için sitemize bakın.",
}
# (language, the encoding the page is written in, the guess)
GUESSED = [("ja", "shift_jis", "shift_jis"), ("ja", "euc-jp", "euc-jp"), ("zh", "gbk", "gbk"),
           ("zh-hant", "big5", "big5"), ("ko", "euc-kr", "euc-kr"), ("ru", "windows-1251", "windows-1251"),
           ("ru", "koi8-r", "koi8-r"), ("uk", "windows-1251", "windows-1251"), ("bg", "windows-1251", "windows-1251"),
           ("bg", "koi8-r", "koi8-r"), ("el", "windows-1253", "windows-1253"),
           # ISO-8859-7 is windows-1253 but for Ά and a few symbols: the more common one is guessed
           ("el", "iso-8859-7", "windows-1253"), ("he", "windows-1255", "windows-1255"),
           ("ar", "windows-1256", "windows-1256"), ("th", "windows-874", "windows-874")]
# Latin-script encodings: no guess, their pages stay windows-1252, as before
NOT_GUESSED = [("fr", "windows-1252"), ("de", "windows-1252"), ("pl", "windows-1250"), ("pl", "iso-8859-2"),
               ("tr", "windows-1254")]


def page(text: str, paragraphs: int = 1) -> str:
    """An undeclared page: a head with a script, the text's start as its title, the text."""
    return (f"<!DOCTYPE html><html><head><title>{text[:20]}</title><script>var n = 1;</script></head>"
            f"<body><div class=main>{f'<p>{text}</p>' * paragraphs}</div></body></html>")


@pytest.mark.parametrize(("lang", "written", "name"), GUESSED, ids=[f"{lang}-{w}" for lang, w, _ in GUESSED])
@pytest.mark.parametrize("paragraphs", [1, 6])
def test_an_undeclared_legacy_page_is_guessed(lang, written, name, paragraphs):
    data = page(TEXTS[lang], paragraphs).encode(lookup(written)[1])
    d = detect(data)
    assert (d.name, d.source, d.legacy) == (name, "guess", True)
    doc = fp.parse(data)
    assert doc.encoding == name
    assert doc.select_one("title").text == TEXTS[lang][:20]
    assert doc.select_one("p").text == TEXTS[lang]


@pytest.mark.parametrize(("lang", "written", "name"), GUESSED, ids=[f"{lang}-{w}" for lang, w, _ in GUESSED])
def test_text_before_any_tag_is_read_too(lang, written, name):
    # a page that is only text, or that begins with its text (a plain-text answer sent as HTML)
    text = TEXTS[lang].encode(lookup(written)[1])
    assert guess(text) == name
    assert guess(text + b"<p>x</p>") == name


@pytest.mark.parametrize(("lang", "written", "name"), GUESSED, ids=[f"{lang}-{w}" for lang, w, _ in GUESSED])
def test_no_page_is_guessed_as_another_legacy_encoding(lang, written, name):
    # the page written in every other legacy encoding that can write it: the guess is
    # right (a language two encodings write alike) or none
    for other in ("shift_jis", "euc-jp", "gbk", "big5", "euc-kr", "windows-1251", "koi8-r", "windows-1253",
                  "windows-1255", "windows-1256", "windows-874", "windows-1250", "windows-1252"):
        try:
            data = page(TEXTS[lang], 3).encode(lookup(other)[1])
        except UnicodeEncodeError:
            continue
        assert guess(data) in (None, other, *(n for la, w, n in GUESSED if la == lang and w == other)), other


def test_thai_is_not_taken_for_gbk():
    # Thai's bytes pair into GB2312 characters without an error, a sixth of them of its
    # second level (its vowels and tone marks lead there), which Chinese text hardly uses
    text = "ประเทศไทยมีประชากรประมาณหกสิบห้าล้านคน กรุงเทพมหานครเป็นเมืองหลวงและเมืองที่ใหญ่ที่สุดของประเทศ"
    assert guess(f"<p>{text}</p>".encode("cp874")) == "windows-874"
    # Chinese with given names of the second level (琪 婷 倩 妍: 4 of 30) stays GBK
    page = "<title>王琪婷的个人主页</title><p>欢迎来到我的博客，这里记录了我和倩妍的生活点滴。</p>"
    assert guess(page.encode("gbk")) == "gbk"


@pytest.mark.parametrize(("lang", "name"), NOT_GUESSED, ids=[f"{lang}-{name}" for lang, name in NOT_GUESSED])
@pytest.mark.parametrize("paragraphs", [1, 6])
def test_other_undeclared_legacy_pages_stay_windows_1252(lang, name, paragraphs):
    data = page(TEXTS[lang], paragraphs).encode(lookup(name)[1])
    assert guess(data) is None
    assert (detect(data).name, detect(data).source) == ("windows-1252", "fallback")
    assert fp.parse(data).encoding == "windows-1252"


@pytest.mark.parametrize("lang", ["ja", "zh", "ko", "ru", "fr", "de", "el", "he", "ar", "th"])
@pytest.mark.parametrize("stray", [b"\xff", b"\xe4\xb8", b"\xe9", b"\x80\x80"])
def test_utf8_with_a_stray_byte_is_guessed_utf8(lang, stray):
    # a cut sequence or a lone legacy byte in a UTF-8 page: the rest is UTF-8 (a French
    # page's C3 A9 is Hangul to windows-949: that guess comes later)
    data = page(TEXTS[lang], 3).encode().replace(b"</p>", stray + b"</p>", 1)
    d = detect(data)
    assert (d.name, d.source) == ("utf-8", "guess")
    assert fp.parse(data).select_one("title").text == TEXTS[lang][:20]


def test_mixed_utf8_and_legacy_bytes_stay_windows_1252():
    # as many windows-1252 words as UTF-8 letters: neither is sure
    data = page(TEXTS["de"]).encode().replace(b"</p>", "été garçon où très".encode("cp1252") + b"</p>", 1)
    assert guess(data) is None


@pytest.mark.parametrize(("lang", "codec"), [("el", "cp1253"), ("el", "iso8859-7"), ("ru", "cp1251"),
                                             ("ru", "koi8-r")])
def test_text_in_capitals_is_not_guessed(lang, codec):
    # Greek capitals read as KOI8-R are its lower-case, phonetic letters (ΤΟ as "to"), with
    # Russian's letter frequencies: a cased script is guessed only with both cases, so text
    # in capitals alone is not guessed at all
    assert guess(page(TEXTS[lang].upper(), 3).encode(codec)) is None


def test_a_declaration_or_utf8_is_never_second_guessed():
    data = page(TEXTS["ru"]).encode("cp1251")
    assert detect(data, "windows-1252").source == "hint"
    assert detect(b'<meta charset="windows-1252">' + data).name == "windows-1252"
    assert detect(page(TEXTS["ja"]).encode()).name == "utf-8"


def test_too_little_text_is_not_guessed():
    # a title's worth of Russian: letter frequencies cannot tell; a few kana can't either
    assert guess(page("Привет, мир").encode("cp1251")) is None
    assert guess(page("こんにちは").encode("cp932")) is None
    assert guess("<p>caf\xe9</p>".encode("cp1252")) is None


def test_binary_data_is_not_guessed():
    # more than 5% C0 control bytes (a tenth of random bytes): no encoding's text, so no
    # guess, even where a decoder would read the rest (Russian, a control every 12 bytes);
    # a few soft line breaks (U+000B) in short text are no binary data
    text = TEXTS["ru"].encode("cp1251") * 2
    assert guess(text) == "windows-1251"
    assert guess(b"".join(text[k:k + 12] + b"\x01" for k in range(0, len(text), 12))) is None
    words = TEXTS["ru"].split(" ")
    soft = " ".join(w + ("\x0b" if k % 6 == 5 else "") for k, w in enumerate(words))
    assert guess(f"<p>{soft}</p>".encode("cp1251")) == "windows-1251"
    assert guess(random.Random(5).randbytes(100_000)) is None
    assert fp.parse(b"<p>" + random.Random(6).randbytes(100_000)).encoding == "windows-1252"


def test_the_text_is_read_past_long_scripts():
    # a short title, 100 KB of inline script, then the text (a search page's shape): the
    # sample is the text between tags, not the bytes after the first non-ASCII one
    data = page("Поиск").replace("var n = 1;", "var n = a > b ? 1 : 2;" * 5_000) + f"<p>{TEXTS['ru']}</p>" * 2
    assert len(data) > 100_000
    assert guess(data.encode("cp1251")) == "windows-1251"
    assert guess(data.replace("Поиск", TEXTS["ko"][:2]).replace(TEXTS["ru"], TEXTS["ko"]).encode("cp949")) == "euc-kr"
    # the script holds a non-ASCII character: only the text around it is read, not all of it
    data = page("Поиск").replace("var n = 1;", "// «\n" + "var n = a > b ? 1 : 2;" * 5_000) + f"<p>{TEXTS['ru']}</p>"
    assert guess(data.encode("cp1251")) == "windows-1251"


# Western, Central European, Turkish and Baltic words with their accents, and English ones
ACCENTED = {
    "cp1252": "été café crème brûlée garçon où êtes déjà très bientôt français élève à là hôtel forêt naïve "
              "für über Größe Straße schön Grüße Übersicht Äpfel Öl müssen können dürfen Bäcker año niño "
              "señor mañana también información está después público música corazón não ação você "
              "coração pão perché città così più già però università får på här även både människor "
              "Århus Ålesund blåbær kjøre",
    "cp1250": "Zażółć gęślą jaźń łódź źdźbło świat może będzie miłość że już ćma příliš žluťoučký kůň úpěl "
              "ďábelské ódy čeština řeka škola árvíztűrő tükörfúrógép őszi ünnep",
    "cp1254": "İstanbul şemsiye çağ güzel ürün ayrıntı için yağmur Üsküdar öğretmen ışık şişe",
    "cp1257": "Lietuva ąžuolas šalis ūkis dėl kaip garšīgs ēdiens māja",
}
ENGLISH = ["the", "and", "of", "to", "in", "is", "for", "on", "with", "as", "by", "at", "from", "this", "that",
           "be", "are", "was", "it", "an", "or", "not", "new", "home", "page"]


def test_latin_text_is_never_guessed_as_cjk_or_cyrillic():
    # 1,500 pages of random Latin-script text, light to dense in accents, some in capitals:
    # accented letters read in any of the guessed encodings break their tests
    r = random.Random(20261205)
    for _ in range(1500):
        codec = r.choice(list(ACCENTED))
        density = r.choice([0.05, 0.2, 0.5, 0.9])
        words = [r.choice(ACCENTED[codec].split()) if r.random() < density else r.choice(ENGLISH)
                 for _ in range(r.choice([5, 20, 60, 200, 800]))]
        text = " ".join(w.upper() for w in words) if r.random() < 0.3 else " ".join(words)
        data = page(text).encode(codec, "replace")
        assert guess(data) is None, (codec, text[:200])


def test_the_c_fast_path_leaves_the_guess_to_python():
    data = page(TEXTS["ja"]).encode("cp932")
    assert _core._parse_bytes(data) is None
    assert fp.parse(data).encoding == "shift_jis"


def _legacy_corpus_pages() -> list[tuple[str, str]]:
    manifest = CORPORA / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    pages = []
    for row in rows:
        data = (CORPORA / row["path"]).read_bytes()
        d = detect(data)
        if d.legacy and d.source in ("meta", "late-meta"):
            pages.append((row["path"], d.name))
    return pages


LEGACY = _legacy_corpus_pages()


@pytest.mark.skipif(not LEGACY, reason=f"corpus not found at {CORPORA} (../shared/corpora from the repo root)")
@pytest.mark.parametrize(("path", "declared"), LEGACY or [("", "")], ids=[p for p, _ in LEGACY] or ["none"])
def test_real_legacy_pages_without_their_declaration(path, declared):
    # the <meta> taken out: a page in an encoding the guess takes is guessed right, a
    # Latin-script one stays windows-1252
    data = re.sub(rb"(?i)<meta[^>]*charset[^>]*>", b"", (CORPORA / path).read_bytes())
    expected = declared if declared in {name for _, _, name in GUESSED} else None
    assert guess(data) == expected


@pytest.mark.parametrize("seed", range(3))
def test_the_byte_counts_are_the_decoded_texts_counts(seed):
    # the one-byte scripts' tests count the sample's bytes (a byte is a character there):
    # each count is the one the decoded text's regular expressions would make
    from fastparse import _encoding_guess as G
    r = random.Random(seed)
    sample = bytes(r.choice(range(0x80, 0x100)) if r.random() < 0.8 else r.choice(b" a.\n<>") for _ in range(5000))
    for script in G._ALPHABETS:
        text, classes = sample.decode(script.codec, "replace"), G._ALPHABET_BYTES[script.name]
        assert G._count(sample, classes.letter) == len(script.letter.findall(text)), script.name
        assert G._count(sample, classes.frequent) == len(script.frequent.findall(text)), script.name
        if script.lower:
            assert G._count(sample, classes.lower) == len(script.lower.findall(text)), script.name
        if script.vowel:
            lower = "".join(script.lower.findall(text))
            assert G._count(sample, classes.vowel) == len(script.vowel.findall(lower)), script.name
        near = re.sub("[\x00-\x7f]+", " ", text)
        assert (sum(map(len, classes.word.findall(sample))) == sum(map(len, script.word.findall(near)))), script.name
    text = sample.decode("cp874", "replace")
    assert G._count(sample, G._THAI_BYTES) == len(G._THAI.findall(text))
    assert G._count(sample, G._THAI_MARK_BYTES) == len(G._THAI_MARK.findall(text))
    near = re.sub("[\x00-\x7f]+", " ", text)
    assert len(G._THAI_STRAY.findall(text)) == len(G._THAI_STRAY.findall(near))
