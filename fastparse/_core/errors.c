/* errors.c — names of the parse errors doc.errors reports; the tokenizer
 * ones are the HTML Standard's codes, the tree ones follow html5lib's tests. */
#include "internal.h"

const char *const fp_error_names[FP_ERR__COUNT + 1] = {
    [FP_ERR_EOF_IN_TAG] = "eof-in-tag",
    [FP_ERR_EOF_BEFORE_TAG_NAME] = "eof-before-tag-name",
    [FP_ERR_EOF_IN_COMMENT] = "eof-in-comment",
    [FP_ERR_EOF_IN_DOCTYPE] = "eof-in-doctype",
    [FP_ERR_EOF_IN_CDATA] = "eof-in-cdata",
    [FP_ERR_EOF_IN_SCRIPT_HTML_COMMENT_LIKE_TEXT] = "eof-in-script-html-comment-like-text",
    [FP_ERR_MISSING_END_TAG_NAME] = "missing-end-tag-name",
    [FP_ERR_INVALID_FIRST_CHARACTER_OF_TAG_NAME] = "invalid-first-character-of-tag-name",
    [FP_ERR_UNEXPECTED_QUESTION_MARK_INSTEAD_OF_TAG_NAME] = "unexpected-question-mark-instead-of-tag-name",
    [FP_ERR_INCORRECTLY_OPENED_COMMENT] = "incorrectly-opened-comment",
    [FP_ERR_ABRUPT_CLOSING_OF_EMPTY_COMMENT] = "abrupt-closing-of-empty-comment",
    [FP_ERR_CDATA_IN_HTML_CONTENT] = "cdata-in-html-content",
    [FP_ERR_END_TAG_WITH_ATTRIBUTES] = "end-tag-with-attributes",
    [FP_ERR_END_TAG_WITH_TRAILING_SOLIDUS] = "end-tag-with-trailing-solidus",
    [FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS] =
        "non-void-html-element-start-tag-with-trailing-solidus",
    [FP_ERR_UNEXPECTED_END_TAG] = "unexpected-end-tag",
    [FP_ERR_UNEXPECTED_START_TAG] = "unexpected-start-tag",
    [FP_ERR_END_TAG_TOO_EARLY] = "end-tag-too-early",
    [FP_ERR_EXPECTED_CLOSING_TAG_BUT_GOT_EOF] = "expected-closing-tag-but-got-eof",
    [FP_ERR__COUNT] = 0,
};
