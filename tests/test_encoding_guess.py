"""The guess at the encoding of an undeclared page that is not UTF-8
(fastparse/_encoding_guess.py, _latin_guess.py): right for UTF-8 with a stray byte, for CJK,
Cyrillic, Greek, Hebrew, Arabic and Thai text and for Central European, Turkish and Baltic
text that windows-1252 reads wrong, and windows-1252, as before, for Western languages."""
from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest
from guess_sample_reference import sample as guess_sample_reference

import fastparse as fp
from fastparse import _core, _encoding_guess, corpora
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
    "be": "Сёння ў Мінску цёплае і сонечнае надвор'е. Заўтра можа пайсці дождж, таму вазьміце з сабой "
          "парасон. Новыя тавары ўжо паступілі ў продаж, падрабязнасці глядзіце на нашым сайце.",
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
    "cs": "Dnes je v Praze krásné počasí. Zítra může pršet, proto si vezměte deštník. Nové zboží již dorazilo "
          "do prodeje, podrobnosti najdete na našich stránkách. Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "hr": "Danas je u Zagrebu lijepo vrijeme. Sutra bi mogla padati kiša, zato ponesite kišobran. Novi proizvodi "
          "već su u prodaji, pojedinosti potražite na našoj stranici. Čašće, žeđ, šećer i đak.",
    # with ş and ţ, which windows-1250 writes, not ș and ț
    "ro": "Astăzi vremea în Bucureşti este frumoasă. Mâine ar putea ploua, aşa că luaţi o umbrelă. "
          "Produsele noi sunt deja în vânzare, detalii pe site-ul nostru.",
    "hu": "Ma Budapesten szép idő van. Holnap eshet az eső, ezért vigyenek magukkal esernyőt. Az új termékek "
          "már kaphatók, a részleteket a honlapunkon találják. Árvíztűrő tükörfúrógép.",
    "lt": "Šiandien Vilniuje gražus oras. Rytoj gali lyti, todėl pasiimkite skėtį. Nauji produktai jau "
          "parduodami, daugiau informacijos rasite mūsų svetainėje. Ąžuolas, ūkis, žąsis ir įvykis.",
    "lv": "Šodien Rīgā ir jauks laiks. Rīt varētu līt lietus, tāpēc paņemiet līdzi lietussargu. Jaunie produkti "
          "jau ir pārdošanā, sīkāka informācija mūsu vietnē. Ģimene, ķēķis, ļoti, ņemt.",
}
# (language, the encoding the page is written in, the guess)
GUESSED = [("ja", "shift_jis", "shift_jis"), ("ja", "euc-jp", "euc-jp"), ("zh", "gbk", "gbk"),
           ("zh-hant", "big5", "big5"), ("ko", "euc-kr", "euc-kr"), ("ru", "windows-1251", "windows-1251"),
           # KOI8-U reads KOI8-R's letters, and Ukrainian's where KOI8-R has box drawings
           ("ru", "koi8-r", "koi8-u"), ("uk", "koi8-u", "koi8-u"), ("bg", "koi8-r", "koi8-u"),
           ("uk", "windows-1251", "windows-1251"), ("bg", "windows-1251", "windows-1251"),
           ("be", "windows-1251", "windows-1251"), ("ru", "x-mac-cyrillic", "x-mac-cyrillic"),
           ("uk", "x-mac-cyrillic", "x-mac-cyrillic"), ("ru", "ibm866", "ibm866"), ("bg", "ibm866", "ibm866"),
           ("ru", "iso-8859-5", "iso-8859-5"), ("be", "iso-8859-5", "iso-8859-5"),
           ("el", "windows-1253", "windows-1253"),
           # ISO-8859-7 is windows-1253 but for Ά and a few symbols: the more common one is guessed
           ("el", "iso-8859-7", "windows-1253"), ("he", "windows-1255", "windows-1255"),
           ("ar", "windows-1256", "windows-1256"), ("ar", "iso-8859-6", "iso-8859-6"),
           ("th", "windows-874", "windows-874")]
# Latin-script pages that windows-1252 reads wrong, two paragraphs or more (_latin_guess.py)
LATIN_GUESSED = [("pl", "windows-1250"), ("pl", "iso-8859-2"), ("cs", "windows-1250"), ("cs", "iso-8859-2"),
                 ("hr", "windows-1250"), ("hr", "iso-8859-2"), ("ro", "windows-1250"), ("tr", "windows-1254"),
                 ("lt", "windows-1257"), ("lv", "windows-1257")]
# Western pages stay windows-1252, and Hungarian, which it reads but for ő and ű (as õ, û)
NOT_GUESSED = [("fr", "windows-1252"), ("de", "windows-1252"), ("hu", "windows-1250"), ("hu", "iso-8859-2")]


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
    for other in ("shift_jis", "euc-jp", "gbk", "big5", "euc-kr", "windows-1251", "koi8-r", "koi8-u",
                  "x-mac-cyrillic", "ibm866", "iso-8859-5", "windows-1253", "windows-1255", "iso-8859-6",
                  "windows-1256", "windows-874", "windows-1250", "iso-8859-2", "windows-1254", "windows-1257",
                  "windows-1252"):
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


@pytest.mark.parametrize(("lang", "name"), LATIN_GUESSED, ids=[f"{lang}-{name}" for lang, name in LATIN_GUESSED])
@pytest.mark.parametrize("paragraphs", [2, 6])
def test_an_undeclared_latin_page_that_windows_1252_reads_wrong_is_guessed(lang, name, paragraphs):
    data = page(TEXTS[lang], paragraphs).encode(lookup(name)[1])
    d = detect(data)
    assert (d.name, d.source) == (name, "guess")
    assert fp.parse(data).select_one("p").text == TEXTS[lang]
    # one paragraph, 20 to 30 letters: too few to go on
    assert guess(page(TEXTS[lang][:90]).encode(lookup(name)[1])) is None


def test_latin_pages_with_punctuation_and_names_stay_windows_1252():
    # an English page's quotes, dashes, prices in pounds; a German page naming Dvořák and
    # Łódź: punctuation any text has, and a few letters among a language's many
    english = " ".join(f"\u201c{w}\u201d \u2013 \u00a3{k}.99 \u2026" for k, w in enumerate(ENGLISH))
    assert guess(page(english).encode("cp1252")) is None
    german = TEXTS["de"] + " Konzert: Antonín Dvořák in Łódź. "
    assert guess(page(german, 3).encode("cp1250")) is None
    # Irish and Norwegian on one page: windows-1250 reads its á é í ó ú alike and å as
    # Slovak's ĺ, which that language's letters leave out (a few in 10,000)
    irish = "Tá an aimsir go breá inniu. Díol earraí nua ar an suíomh. Fáilte roimh chách, déan teagmháil linn."
    nynorsk = "Veret er fint i dag på Vestlandet. Nye varer er på lager, sjå nettstaden vår for detaljar om fisken."
    for n in (2, 3, 5):
        assert guess(page(" ".join([irish, nynorsk] * n)).encode("cp1252")) is None
    # symbols by numbers: "¾ cup" reads "ľ cup" in windows-1250, "±5" "ą5" in ISO-8859-2;
    # between letters they are its letters ("ma³y")
    for q in ("¾", "¼", "½"):
        recipe = " ".join(f"Add {q} cup of {w}, stir for {m} minutes." for w, m in zip(ENGLISH, range(24)))
        assert guess(page(recipe, 3).encode("cp1252")) is None, q
    spec = " ".join(f"Tolerance ±{k}%, {k}0 µm at {k}0 °C, {k} m² and {k} m³." for k in range(1, 10))
    assert guess(page(spec, 3).encode("cp1252")) is None
    # EUC-KR's quotes around English words, A1 B0 and A1 B1, read in ISO-8859-2 as "Ą°" and
    # "Ą±": Polish letters, but as many capitals as lower-case letters
    quoted = " ".join(f"\u201c{w}\u201d" for w in ENGLISH * 2)
    assert guess(page(quoted).encode("euc_kr")) is None


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
LATIN_NAMES = {"cp1252": None, "cp1250": "windows-1250", "cp1254": "windows-1254", "cp1257": "windows-1257"}
ENGLISH = ["the", "and", "of", "to", "in", "is", "for", "on", "with", "as", "by", "at", "from", "this", "that",
           "be", "are", "was", "it", "an", "or", "not", "new", "home", "page"]


def test_latin_text_is_never_guessed_as_another_script():
    # 1,500 pages of random Latin-script text, light to dense in accents, some in capitals:
    # accented letters read in any of the guessed encodings break their tests; Western words
    # stay windows-1252, the others' are theirs or windows-1252 (a mix of languages)
    r = random.Random(20261205)
    for _ in range(1500):
        codec = r.choice(list(ACCENTED))
        density = r.choice([0.05, 0.2, 0.5, 0.9])
        words = [r.choice(ACCENTED[codec].split()) if r.random() < density else r.choice(ENGLISH)
                 for _ in range(r.choice([5, 20, 60, 200, 800]))]
        text = " ".join(w.upper() for w in words) if r.random() < 0.3 else " ".join(words)
        data = page(text).encode(codec, "replace")
        assert guess(data) in (None, LATIN_NAMES[codec]), (codec, text[:200])


def test_the_c_fast_path_calls_the_guess_and_parses():
    # no second detection in Python: C decides that the guess must, calls it, parses
    from fastparse import _parse
    data = page(TEXTS["ja"]).encode("cp932")
    calls = []

    def general(*args, **kwargs):
        calls.append(args)
        return _parse._parse_general(*args, **kwargs)

    def guess_once(data):
        calls.append("guess")
        return guess(data)

    _core._set_parse_general(general)
    _core._set_guess(guess_once)
    try:
        assert _core._parse_bytes(data).encoding == "shift_jis"
        assert fp.parse(data).encoding == "shift_jis"
        assert fp.parse("<p>caf\xe9".encode("cp1252")).encoding == "windows-1252"   # no guess: the fallback
    finally:
        _core._set_parse_general(_parse._parse_general)
        _core._set_guess(_encoding_guess.guess)
    assert calls == ["guess"] * 3
    with pytest.raises(TypeError, match="callable"):
        _core._set_guess(None)


def test_a_guess_that_fails_fails_the_parse():

    def broken(data):
        raise MemoryError("no room for the sample")

    _core._set_guess(broken)
    try:
        with pytest.raises(MemoryError, match="sample"):
            fp.parse(page(TEXTS["ja"]).encode("cp932"))
        assert fp.parse(b"<p>x").encoding == "utf-8"   # declared or UTF-8: no guess
    finally:
        _core._set_guess(_encoding_guess.guess)


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
    # Western one stays windows-1252, another Latin-script one is guessed right or stays
    data = re.sub(rb"(?i)<meta[^>]*charset[^>]*>", b"", (CORPORA / path).read_bytes())
    if declared in {name for _, _, name in GUESSED}:
        assert guess(data) == declared
    elif declared in {name for _, name in LATIN_GUESSED}:
        assert guess(data) in (declared, None)
    else:
        assert guess(data) is None


@pytest.mark.parametrize("seed", range(3))
def test_the_byte_counts_are_the_decoded_texts_counts(seed):
    # the one-byte scripts' tests count the sample's bytes (a byte is a character there):
    # each count is the one the decoded text's regular expressions would make
    from fastparse import _encoding_guess as G
    r = random.Random(seed)
    data = bytes(r.choice(range(0x80, 0x100)) if r.random() < 0.8 else r.choice(b" a.\n<>") for _ in range(5000))
    sample = G._Sample(data, _core.byte_counts(data))
    for script in G._ALPHABETS:
        text, classes = data.decode(script.codec, "replace"), G._ALPHABET_BYTES[script.name]
        assert sample.count(classes.letter) == len(script.letter.findall(text)), script.name
        assert sample.count(classes.frequent) == len(script.frequent.findall(text)), script.name
        if script.lower:
            assert sample.count(classes.lower) == len(script.lower.findall(text)), script.name
        if script.vowel:
            lower = "".join(script.lower.findall(text))
            assert sample.count(classes.vowel) == len(script.vowel.findall(lower)), script.name
        near = re.sub("[\x00-\x7f]+", " ", text)
        assert _core.bytes_in_runs(data, classes.letter, 3) == sum(map(len, re.findall(script.letter.pattern + "{3,}", near))), script.name
    text = data.decode("cp874", "replace")
    assert sample.count(G._THAI_BYTES) == len(G._THAI.findall(text))
    assert sample.count(G._THAI_MARK_BYTES) == len(G._THAI_MARK.findall(text))
    near = re.sub("[\x00-\x7f]+", " ", text)
    assert len(G._THAI_STRAY.findall(text)) == len(G._THAI_STRAY.findall(near))
    strays = (_core.unpaired_bytes(data, G._THAI_MARK_BYTES, G._THAI_CONSONANT_BYTES + G._THAI_MARK_BYTES, False)
              + _core.unpaired_bytes(data, G._THAI_LEADING_VOWEL_BYTES, G._THAI_CONSONANT_BYTES, True))
    assert strays == len(G._THAI_STRAY.findall(text))


def _random_page(r: random.Random) -> bytes:
    """Markup, ASCII and non-ASCII text in runs short and long: runs that cross the
    sampler's 4 KiB blocks, runs over 2 KiB, samples over 32 KiB, pages over 1 MiB"""
    if r.random() < 0.5:
        pieces = (b"<", b">", b"a", b" ", b"\xe9", b"\x82\xa0", b"\n", b"<p>", b"</p>", b"x" * 50)
        return b"".join(r.choice(pieces) for _ in range(r.randint(0, 40)))
    out = []
    for _ in range(r.randint(1, 30)):
        k = r.random()
        if k < 0.3:
            out.append(b"a" * r.randint(0, 6000))
        elif k < 0.5:
            out.append(b"\xe9" * r.randint(1, 3000))
        elif k < 0.7:
            out.append(b"<" * r.randint(0, 2) + b"x" * r.randint(0, 5000) + b">" * r.randint(0, 2))
        else:
            out.append(bytes(r.choice(b"<>a \xe9\xff") for _ in range(r.randint(0, 500))))
    return b"".join(out)


def test_the_sample_is_the_python_samplers():
    # guess.c against the sampler as it was written in Python (a regular expression
    # around the blocks that are not ASCII), on 3,000 random pages and the edges
    r = random.Random(61)
    pages = [_random_page(r) for _ in range(3000)]
    pages += [b"", b">", b"\xe9", b">\xe9", b"\xe9<", b"a" * (1 << 20) + b">\xe9\xe9",
              b"a" * ((1 << 20) - 2) + b">\xe9\xe9<", b"<p>" + b"x\xe9 " * 700_000,
              bytes(r.choice(b"<>a\xe9 ") for _ in range(1 << 21)), b"\xe9" * (1 << 21)]
    for data in pages:
        assert _core.guess_sample(data) == guess_sample_reference(data), data[:60]
    assert _core.guess_sample(memoryview(b">\xe9x<" * 9)) == _core.guess_sample(bytearray(b">\xe9x<" * 9)) \
        == b"\n".join([b"\xe9x"] * 9)


@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"corpus not found at {CORPORA} (../shared/corpora from the repo root)")
def test_the_sample_of_real_pages_is_the_python_samplers():
    for page in corpora.real_pages(str(CORPORA)):
        data = page.read()
        assert _core.guess_sample(data) == guess_sample_reference(data), page


def test_byte_counts():
    r = random.Random(7)
    for n in (0, 1, 3, 4, 5, 1000):
        data = bytes(r.randrange(256) for _ in range(n))
        assert _core.byte_counts(data) == tuple(data.count(bytes([b])) for b in range(256))
    assert _core.byte_counts(memoryview(b"aab"))[ord("a")] == 2
    with pytest.raises(TypeError):
        _core.byte_counts("text")
    with pytest.raises(TypeError):
        _core.guess_sample("text")


def test_utf8_counts_are_pythons_replace_decoders():
    # each maximal ill-formed subpart one U+FFFD, as Python's "replace" (and the Encoding
    # Standard's decoder) read it; every byte that decides where one ends
    r = random.Random(3)
    alphabet = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBB, 0xBD, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEE,
                0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
    for _ in range(30_000):
        data = bytes(r.choice(alphabet) for _ in range(r.randint(0, 9)))
        text = data.decode("utf-8", "replace")
        chars, errors, replacements = _core.utf8_counts(data)
        assert chars + errors == len(text) - sum(b < 0x80 for b in data), data
        assert errors + replacements == text.count("\ufffd"), data


def test_big5_pairs_are_a_regular_expressions():
    pair = re.compile(rb"[\xa1-\xf9][\x40-\x7e\xa1-\xfe]")
    r = random.Random(4)
    alphabet = [0x20, 0x3F, 0x40, 0x7E, 0x7F, 0xA0, 0xA1, 0xA3, 0xA4, 0xC6, 0xC7, 0xF9, 0xFA, 0xFE, 0xFF]
    for _ in range(20_000):
        data = bytes(r.choice(alphabet) for _ in range(r.randint(0, 9)))
        pairs = pair.findall(data)
        assert _core.big5_pairs(data) == (len(pairs), sum(0xA4 <= p[0] <= 0xC6 for p in pairs),
                                          sum(p[1] < 0x80 for p in pairs)), data


def test_char_counts_and_chars_in_are_regular_expressions():
    # the CJK tests' classes counted in C, and the Han characters the GBK test encodes,
    # against the same classes as regular expressions, at every range's edges and in
    # each of a str's storage kinds (Latin-1, UCS-2, UCS-4)
    from fastparse import _encoding_guess as G
    classes = [re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in c) + "]") for c in G._CLASSES]
    edges = sorted({x for c in G._CLASSES for lo, hi in c for x in (lo - 1, lo, hi, hi + 1) if x <= 0x10FFFF}
                   | {0x41, 0xE9, 0x10000, 0x20000})
    r = random.Random(5)
    for _ in range(5000):
        text = "".join(chr(r.choice(edges)) for _ in range(r.randint(0, 30)))
        assert _core.char_counts(text, G._CLASS_RANGES) == tuple(len(c.findall(text)) for c in classes), text
        assert _core.chars_in(text, G._HAN_RANGES) == "".join(classes[5].findall(text))
    assert _core.char_counts("caf\xe9", ((0x80, 0xFF, 1),)) == (0, 1)
    for bad in (((0x41, 0x5A, 0),), ((0x100, 0xFF, 0),), ((0x80, 0xFF, 32),), ((0x80, 0xFF),), (0x80,),
                ((0x80, 0xFF, 0),) * 33):
        with pytest.raises(ValueError, match="char_counts"):
            _core.char_counts("x", bad)
    with pytest.raises(TypeError):
        _core.char_counts(b"x", ((0x80, 0xFF, 0),))


def test_bytes_in_runs():
    assert _core.bytes_in_runs(b"", b"ab", 3) == 0
    assert _core.bytes_in_runs(b"ab abc abab", b"ab", 3) == 4
    assert _core.bytes_in_runs(b"aaa", b"a", 3) == 3
    assert _core.bytes_in_runs(b"aa", b"a", 3) == 0
    assert _core.bytes_in_runs(bytearray(b"xaaax"), b"a", 1) == 3


def test_the_cyrillic_encoding_with_capitals_where_words_begin_wins():
    # x-mac-cyrillic's я is windows-1251's Я, and each one's capitals are the other's
    # symbols or letters: windows-1251 reads a Mac page with capitals inside words
    short = "Объявление о приёме заявок. Продажа квартир в Москве и области, цены от владельцев."
    for text in (TEXTS["ru"], TEXTS["uk"], short):
        assert guess(page(text, 2).encode("mac_cyrillic")) == "x-mac-cyrillic", text
        assert guess(page(text, 2).encode("cp1251")) == "windows-1251", text
    # one я after a lower-case letter in 560 letters: windows-1251 passes with one capital
    # inside a word, x-mac-cyrillic with none, and wins
    base = TEXTS["ru"].replace("Сегодня", "Сейчас").replace("хорошая погода", "хороший день")
    data = page(" ".join([base] * 4) + " Моя страница.").encode("mac_cyrillic")
    sample = _encoding_guess._sample(data)
    high = sample.count(_encoding_guess._HIGH_BYTES)
    assert [_encoding_guess._alphabet(sample, high, a) for a in _encoding_guess._ALPHABETS[:3]] == [(1, 9), None, (0, 0)]
    assert guess(data) == "x-mac-cyrillic"
    # a menu of capitalised words between dashes: x-mac-cyrillic reads windows-1251's dashes
    # as capitals (Ц), standing alone, and its capitals as symbols before letters
    menu = "Главная – Новости – Контакты – О нас – Поиск – Вход"
    assert guess(page(menu).encode("cp1251")) == "windows-1251"
    assert guess(page(menu).encode("mac_cyrillic")) == "x-mac-cyrillic"
    # a brand name with a capital inside is text too
    assert guess(page(TEXTS["ru"] + " Оператор МегаФон.", 2).encode("cp1251")) == "windows-1251"


def test_other_encodings_symbols_before_ascii_letters_are_not_korean():
    # windows-949's syllables beyond KS X 1001 have trail bytes below A1, where a symbol
    # or letter of another encoding and the ASCII letter after it fall
    quoted = " ".join(f"Click \u201c{w}\u201d to go on." for w in ENGLISH)   # Shift_JIS: 81 67 and 81 68
    assert guess(page(quoted).encode("shift_jis")) is None
    estonian = "\n".join(["õn", "äe", "õi", "äm", "õl", "äa", "õe", "äk"] * 4)   # Mac Roman: 9B and 8A before letters
    assert guess(page(estonian).encode("mac_roman")) is None
    # Korean with a few of the others (똠, 햏) stays Korean
    assert guess(page(TEXTS["ko"] + " 똠방각하 햏자", 3).encode("cp949")) == "euc-kr"


def test_pairs_with_ascii_trail_bytes_alone_are_not_big5():
    # KOI8's no-break space (9A) before a letter is a Hong Kong character to big5hkscs;
    # ISO-8859-16's š (A8) before one is a common Big5 character with a trail byte below 0x80
    assert guess(page("\n".join(["\u00a0e", "\u00a0m"] * 12)).encode("koi8_r")) is None
    slovene = " ".join(["šola", "šest", "naš", "šef", "uporabniško", "vaše"] * 5)
    assert guess(page(slovene).encode("iso8859_16")) is None
    assert guess(page(TEXTS["zh-hant"], 3).encode("big5")) == "big5"


def test_quotes_around_ascii_words_are_not_japanese():
    # Big5's quotes, A1 A5 and A1 A6, are EUC-JP's full stop and middle dot (・, in the
    # katakana block): punctuation, not kana
    quoted = " ".join(f"\u2018{w}\u2019" for w in ENGLISH)
    assert guess(page(quoted).encode("big5")) is None


def test_no_letter_of_an_alphabet_makes_a_quarter_of_the_text():
    # katakana in Big5 (C7 and a byte) reads as ا and a letter in windows-1256
    katakana = " ".join(["カタカナ", "テスト", "メモ", "ホテル", "カメラ", "リンク"] * 8)
    assert guess(page(katakana).encode("big5")) is None


def test_windows_1256_letters_unassigned_in_iso_8859_6_rule_it_out():
    # ISO-8859-6 reads windows-1256's letters up to D7 alike and its other letters as other
    # letters, but has no character for ف ق ك (DD-DF)
    assert guess(page(TEXTS["ar"], 6).encode("cp1256")) == "windows-1256"
    assert guess(page(TEXTS["ar"], 6).encode("iso8859_6")) == "iso-8859-6"
    assert fp.parse(page(TEXTS["ar"], 2).encode("iso8859_6")).select_one("p").text == TEXTS["ar"]


def test_lists_of_adjectives_are_cyrillic():
    # language names: every word "-ский", a third vowels (prose has 42-45%), and in Bulgarian
    # few capitals, all of them x-mac-cyrillic's or windows-1251's alike but for the one
    # that reads the other's capitals as symbols
    ru = ("Русский Английский Немецкий Французский Испанский Итальянский Польский Чешский Шведский Датский "
          "Финский Греческий Турецкий Японский Китайский Корейский Арабский Персидский")
    bg = ("Български английски немски Френски испански италиански полски Чешки шведски датски фински гръцки "
          "Турски японски китайски корейски арабски персийски")
    for text in (ru, bg):
        for name in ("windows-1251", "koi8-r", "x-mac-cyrillic", "ibm866", "iso-8859-5"):
            data = page(text).encode(lookup(name)[1])
            assert guess(data) == ("koi8-u" if name == "koi8-r" else name), (text[:9], name)
    data = page(bg).encode("mac_cyrillic")
    sample = _encoding_guess._sample(data)
    high = sample.count(_encoding_guess._HIGH_BYTES)
    ranks = [_encoding_guess._alphabet(sample, high, a) for a in _encoding_guess._ALPHABETS[:3]]
    assert ranks[0][0] == ranks[2][0] == 0 and ranks[0][1] > ranks[2][1] == 0
