"""The names SVG and MathML elements and attributes get in the DOM.

The tokenizer lower-cases every tag and attribute name; for elements it puts in
the SVG or MathML namespace, the tree builder then gives these names back their
camel case (HTML Standard 13.2.6.5: the SVG tag names of "any other start tag"
in foreign content, "adjust SVG attributes", "adjust MathML attributes").
`Tag.name` and `Tag.attrs` show the adjusted names, and selectors compare names
on SVG and MathML elements with them as written (fastparse.selectors.parser).

The lists are the Standard's, in its order. html5lib 1.1's copies are older: its
tag list lacks feDropShadow, and its attribute list still has four names the
Standard has since dropped (contentScriptType, contentStyleType,
externalResourcesRequired, filterRes), which stay lower-case here as in lexbor.
"""
# ruff: noqa: SIM905  (the names are written as the Standard lists them, a word each)

SVG_TAG_NAMES = {name.lower(): name for name in (
    "altGlyph altGlyphDef altGlyphItem animateColor animateMotion animateTransform clipPath "
    "feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting "
    "feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR "
    "feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight "
    "feSpecularLighting feSpotLight feTile feTurbulence foreignObject glyphRef linearGradient "
    "radialGradient textPath"
).split()}

SVG_ATTRIBUTE_NAMES = {name.lower(): name for name in (
    "attributeName attributeType baseFrequency baseProfile calcMode clipPathUnits diffuseConstant "
    "edgeMode filterUnits glyphRef gradientTransform gradientUnits kernelMatrix kernelUnitLength "
    "keyPoints keySplines keyTimes lengthAdjust limitingConeAngle markerHeight markerUnits "
    "markerWidth maskContentUnits maskUnits numOctaves pathLength patternContentUnits "
    "patternTransform patternUnits pointsAtX pointsAtY pointsAtZ preserveAlpha preserveAspectRatio "
    "primitiveUnits refX refY repeatCount repeatDur requiredExtensions requiredFeatures "
    "specularConstant specularExponent spreadMethod startOffset stdDeviation stitchTiles "
    "surfaceScale systemLanguage tableValues targetX targetY textLength viewBox viewTarget "
    "xChannelSelector yChannelSelector zoomAndPan"
).split()}

MATHML_ATTRIBUTE_NAMES = {"definitionurl": "definitionURL"}
