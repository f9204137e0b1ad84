//! The allowlist: the SVG elements and attributes an icon may use, and the rule for their values.
//! Shapes, paint, gradients, clipping, masks, simple filters, text and transform animation; no
//! `<script>`, `<style>`, `<foreignObject>`, `<a>`, `<iframe>`, `<set>`, `<feImage>` or anything not listed.

pub const SVG_NS: &str = "http://www.w3.org/2000/svg";
pub const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Namespaces of editor metadata (Inkscape, Sodipodi, RDF, Dublin Core, Creative Commons,
/// Sketch): their elements and attributes are inert in a browser, so they are kept when written
/// with a prefix. Unprefixed, an HTML parser would read such an element as SVG or HTML.
pub const EDITOR_NS: &[&str] = &[
    "http://www.inkscape.org/namespaces/inkscape",
    "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "http://creativecommons.org/ns#",
    "http://purl.org/dc/elements/1.1/",
    "http://purl.org/dc/terms/",
    "http://www.bohemiancoding.com/sketch/ns",
];

/// Presentation attributes, which are also the properties a `style` attribute may set.
const PRESENTATION: &[&str] = &[
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset",
    "stroke-opacity", "opacity", "color", "display", "visibility", "clip-path", "clip-rule", "mask", "mask-type", "filter", "stop-color", "stop-opacity", "flood-color",
    "flood-opacity", "lighting-color", "font", "font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch", "text-anchor", "dominant-baseline",
    "alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing", "text-decoration", "writing-mode", "direction", "overflow", "vector-effect", "shape-rendering",
    "text-rendering", "image-rendering", "color-interpolation", "color-interpolation-filters", "color-rendering", "paint-order", "marker", "marker-start", "marker-mid",
    "marker-end", "mix-blend-mode", "isolation", "transform", "transform-origin", "transform-box", "enable-background", "solid-color", "solid-opacity",
];

/// Attributes every allowed SVG element may carry (besides [`PRESENTATION`], `aria-*` and `data-*`).
const CORE: &[&str] = &["id", "class", "style", "lang", "role", "focusable", "tabindex", "requiredExtensions", "systemLanguage"];

const GEOMETRY: &[&str] = &["x", "y", "width", "height"];
const TIMING: &[&str] = &[
    "attributeName", "attributeType", "begin", "dur", "end", "min", "max", "restart", "repeatCount", "repeatDur", "fill", "calcMode", "values", "keyTimes", "keySplines", "from", "to", "by",
    "additive", "accumulate", "href",
];
const FE: &[&str] = &["x", "y", "width", "height", "result", "in", "in2"];

/// Each allowed SVG element with the attributes of its own; `href` only ever takes a `#fragment`
/// (or, on `<image>`, a raster `data:` URI).
pub const ELEMENTS: &[(&str, &[&[&str]])] = &[
    ("svg", &[GEOMETRY, &["viewBox", "preserveAspectRatio", "version", "baseProfile", "zoomAndPan"]]),
    ("g", &[]),
    ("defs", &[]),
    ("title", &[]),
    ("desc", &[]),
    ("metadata", &[]),
    ("symbol", &[GEOMETRY, &["viewBox", "preserveAspectRatio", "refX", "refY"]]),
    ("use", &[GEOMETRY, &["href"]]),
    ("path", &[&["d", "pathLength"]]),
    ("rect", &[GEOMETRY, &["rx", "ry", "pathLength"]]),
    ("circle", &[&["cx", "cy", "r", "pathLength"]]),
    ("ellipse", &[&["cx", "cy", "rx", "ry", "pathLength"]]),
    ("line", &[&["x1", "y1", "x2", "y2", "pathLength"]]),
    ("polyline", &[&["points", "pathLength"]]),
    ("polygon", &[&["points", "pathLength"]]),
    ("text", &[&["x", "y", "dx", "dy", "rotate", "textLength", "lengthAdjust"]]),
    ("tspan", &[&["x", "y", "dx", "dy", "rotate", "textLength", "lengthAdjust"]]),
    ("textPath", &[&["href", "startOffset", "method", "spacing", "side", "path", "textLength", "lengthAdjust"]]),
    ("linearGradient", &[&["x1", "y1", "x2", "y2", "gradientUnits", "gradientTransform", "spreadMethod", "href"]]),
    ("radialGradient", &[&["cx", "cy", "r", "fx", "fy", "fr", "gradientUnits", "gradientTransform", "spreadMethod", "href"]]),
    ("stop", &[&["offset"]]),
    ("clipPath", &[&["clipPathUnits"]]),
    ("mask", &[GEOMETRY, &["maskUnits", "maskContentUnits"]]),
    ("pattern", &[GEOMETRY, &["patternUnits", "patternContentUnits", "patternTransform", "viewBox", "preserveAspectRatio", "href"]]),
    ("marker", &[&["viewBox", "preserveAspectRatio", "refX", "refY", "markerUnits", "markerWidth", "markerHeight", "orient"]]),
    ("image", &[GEOMETRY, &["href", "preserveAspectRatio"]]),
    ("filter", &[GEOMETRY, &["filterUnits", "primitiveUnits"]]),
    ("feGaussianBlur", &[FE, &["stdDeviation", "edgeMode"]]),
    ("feOffset", &[FE, &["dx", "dy"]]),
    ("feBlend", &[FE, &["mode"]]),
    ("feColorMatrix", &[FE, &["type", "values"]]),
    ("feComposite", &[FE, &["operator", "k1", "k2", "k3", "k4"]]),
    ("feFlood", &[FE]),
    ("feMerge", &[FE]),
    ("feMergeNode", &[&["in"]]),
    ("feDropShadow", &[FE, &["dx", "dy", "stdDeviation"]]),
    ("feMorphology", &[FE, &["operator", "radius"]]),
    ("feComponentTransfer", &[FE]),
    ("feFuncR", &[&["type", "tableValues", "slope", "intercept", "amplitude", "exponent", "offset"]]),
    ("feFuncG", &[&["type", "tableValues", "slope", "intercept", "amplitude", "exponent", "offset"]]),
    ("feFuncB", &[&["type", "tableValues", "slope", "intercept", "amplitude", "exponent", "offset"]]),
    ("feFuncA", &[&["type", "tableValues", "slope", "intercept", "amplitude", "exponent", "offset"]]),
    ("animate", &[TIMING]),
    ("animateTransform", &[TIMING, &["type"]]),
    ("animateMotion", &[TIMING, &["path", "keyPoints", "rotate"]]),
    ("mpath", &[&["href"]]),
];

/// The attribute lists of an allowed SVG element.
pub fn element(local: &str) -> Option<&'static [&'static [&'static str]]> {
    ELEMENTS.iter().find(|(name, _)| *name == local).map(|(_, attrs)| *attrs)
}

/// Whether an unprefixed attribute is allowed on an element with these lists.
pub fn attribute(lists: &[&[&str]], local: &str) -> bool {
    lists.iter().any(|l| l.contains(&local))
        || CORE.contains(&local)
        || PRESENTATION.contains(&local)
        || ((local.starts_with("aria-") || local.starts_with("data-")) && local.len() > 5)
}

/// What an `<animate*>` may change: presentation and geometry, never a reference or a style sheet.
pub fn animatable(name: &str) -> bool {
    name != "href" && (PRESENTATION.contains(&name) || (!TIMING.contains(&name) && ELEMENTS.iter().flat_map(|(_, l)| l.iter()).any(|l| l.contains(&name))))
}

/// The functions a value may call. `url()` only with a `#fragment`.
const FUNCTIONS: &[&str] = &["rgb", "rgba", "hsl", "hsla", "url", "matrix", "translate", "scale", "rotate", "skewx", "skewy"];

/// Why a (decoded) attribute value or CSS declaration value is refused: a backslash (a CSS
/// escape such as `u\72l(`), a comment, an at-rule, or a function outside the list (colour, transform, `url`), or a
/// `url()` that leaves the document. `Err((true, why))` is a reference to a URL (active content).
pub fn value(v: &str) -> Result<(), (bool, String)> {
    if let Some(c) = v.chars().find(|c| matches!(c, '\\' | '@' | '<' | '>') || (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))) {
        let c = if c.is_control() { format!("{c:?}") } else { format!("`{c}`") };
        return Err((false, format!("{c} in an attribute value (CSS escapes, at-rules and markup are not allowed)")));
    }
    if v.contains("/*") {
        return Err((false, "a CSS comment in an attribute value".into()));
    }
    let b = v.as_bytes();
    let mut from = 0;
    while let Some(p) = v[from..].find('(').map(|p| from + p) {
        let start = b[..p].iter().rposition(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'))).map_or(0, |s| s + 1);
        let name = v[start..p].to_ascii_lowercase();
        from = p + 1;
        if name.is_empty() {
            continue;
        }
        if !FUNCTIONS.contains(&name.as_str()) {
            return Err((false, format!("the function `{name}(`")));
        }
        if name == "url" {
            let arg = v[p + 1..].split(')').next().unwrap_or("").trim();
            let arg = arg.trim_matches(|c| c == '"' || c == '\'');
            if !fragment(arg) {
                return Err((true, format!("`url({})`", short(arg))));
            }
        }
    }
    Ok(())
}

/// A same-document reference: `#` and an id.
pub fn fragment(s: &str) -> bool {
    s.strip_prefix('#').is_some_and(|id| !id.is_empty() && id.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b':')))
}

/// An `<image>` source that stays inside the icon and cannot run anything: a raster `data:` URI.
pub fn raster_data(s: &str) -> bool {
    let lower = s.get(..24).unwrap_or(s).to_ascii_lowercase();
    ["data:image/png;", "data:image/jpeg;", "data:image/webp;", "data:image/gif;"].iter().any(|p| lower.starts_with(p))
}

/// A `style` attribute: declarations of presentation properties with allowed values.
pub fn style(v: &str) -> Result<(), (bool, String)> {
    value(v)?;
    for decl in v.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        let Some((prop, val)) = decl.split_once(':') else { return Err((false, format!("`{}` in `style` is not a declaration", short(decl)))) };
        let prop = prop.trim().to_ascii_lowercase();
        if !PRESENTATION.contains(&prop.as_str()) {
            return Err((false, format!("the property `{}` in `style`", short(&prop))));
        }
        value(val)?;
    }
    Ok(())
}

/// The first 40 characters of `s`, for a message.
pub fn short(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s.to_string(),
    }
}
