//! Icons (SEP-973 and the basic protocol's security rules): where they may come
//! from, which image types are allowed, and what `data:` bytes must be.
//! Also [`pick`], which chooses the icon to show for a size and theme.

use crate::tree::Node;

use super::formats::{decode_base64, percent_decode};
use super::{Cx, Options};

pub mod svg;

/// Image types a consumer may render, with the canonical type each one means.
pub const ALLOWED_MIME_TYPES: &[(&str, &str)] = &[
    ("image/png", "image/png"),
    ("image/jpeg", "image/jpeg"),
    ("image/jpg", "image/jpeg"),
    ("image/svg+xml", "image/svg+xml"),
    ("image/webp", "image/webp"),
];

/// The canonical allowed type for a MIME type (parameters and case ignored).
pub fn allowed(mime: &str) -> Option<&'static str> {
    let base = mime.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    ALLOWED_MIME_TYPES.iter().find(|(m, _)| *m == base).map(|(_, c)| *c)
}

/// The image type the bytes are, by their magic bytes.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        return Some("image/png");
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some("image/jpeg");
    }
    if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        return Some("image/webp");
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1024)]);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with("<svg") || ((text.starts_with("<?xml") || text.starts_with("<!--") || text.starts_with("<!DOCTYPE svg")) && text.contains("<svg")) {
        return Some("image/svg+xml");
    }
    None
}

/// A parsed `data:` URI.
pub struct DataUri<'a> {
    pub mime: Option<&'a str>,
    pub base64: bool,
    pub data: &'a str,
}

pub fn parse_data_uri(src: &str) -> Option<DataUri<'_>> {
    let rest = src.strip_prefix("data:").or_else(|| src.get(..5).filter(|p| p.eq_ignore_ascii_case("data:")).map(|_| &src[5..]))?;
    let (head, data) = rest.split_once(',')?;
    let mut parts = head.split(';');
    let mime = parts.next().filter(|m| !m.is_empty());
    let base64 = head.split(';').skip(1).any(|p| p.eq_ignore_ascii_case("base64"));
    Some(DataUri { mime, base64, data })
}

fn scheme(src: &str) -> Option<String> {
    let (s, _) = src.split_once(':')?;
    Some(s.to_ascii_lowercase())
}

/// Checks one icon object (its `src`, `mimeType`, `sizes` and `data:` bytes).
pub fn check<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    let sizes = o.get("sizes").and_then(Node::as_array).map(|a| a.iter().map(Node::as_str));
    check_fields(o.get("src").and_then(Node::as_str), o.get("mimeType").and_then(Node::as_str), sizes.into_iter().flatten(), cx);
}

/// [`check`] on an icon's fields; `sizes` yields `None` for an entry that is not a string.
fn check_fields<'s>(src: Option<&str>, declared: Option<&str>, sizes: impl Iterator<Item = Option<&'s str>>, cx: &mut Cx<'_>) {
    if let Some(m) = declared {
        if allowed(m).is_none() {
            cx.key("mimeType", |cx| cx.error("icon.mime-type", format!("`{m}` is not an allowed icon type (PNG, JPEG, SVG, WebP)")));
        }
    }
    cx.push_key("sizes");
    for (i, size) in sizes.enumerate() {
        if let Some(size) = size.filter(|s| !size_ok(s)) {
            // The schema: each string "should be" `WxH` or `any`.
            cx.index(i, |cx| cx.warning("icon.sizes", format!("{} is not a size: write `WxH` in pixels (e.g. `48x48`) or `any`, one size per entry", describe_short(size))));
        }
    }
    cx.pop();
    let Some(src) = src else { return };
    cx.key("src", |cx| match scheme(src).as_deref() {
        Some("https") => {
            if declared.is_none() && implied_by_extension(src).is_none() {
                cx.warning("icon.mime-type", "the icon's type is unknown: no `mimeType` and no image file extension");
            }
        }
        Some("data") => check_data(src, declared, cx),
        Some(other) => cx.error("icon.scheme", format!("an icon must be an `https:` or `data:` URI, not `{other}:`")),
        None => cx.error("icon.scheme", "an icon `src` must be an `https:` or `data:` URI"),
    });
}

/// One `sizes` entry: `any`, or a width and a height in pixels (positive, no leading
/// zero) joined by `x`, as HTML's `sizes` attribute writes them.
pub fn size_ok(s: &str) -> bool {
    if s.eq_ignore_ascii_case("any") {
        return true;
    }
    let dimension = |d: &str| !d.starts_with('0') && d.bytes().all(|b| b.is_ascii_digit()) && d.parse::<u32>().is_ok();
    s.split_once(['x', 'X']).is_some_and(|(w, h)| dimension(w) && dimension(h))
}

/// The largest dimension of a valid `WxH` entry (`None` for `any`).
fn size_px(s: &str) -> Option<u32> {
    let (w, h) = s.split_once(['x', 'X'])?;
    Some(w.parse::<u32>().ok()?.max(h.parse().ok()?))
}

fn describe_short(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((end, _)) => format!("{:?}…", &s[..end]),
        None => format!("{s:?}"),
    }
}

fn check_data(src: &str, declared: Option<&str>, cx: &mut Cx<'_>) {
    let Some(uri) = parse_data_uri(src) else {
        cx.error("icon.data", "the `data:` URI has no `,` before its data");
        return;
    };
    // An absent media type (RFC 2397's default, text/plain) is not held against the
    // icon: `mimeType` and the bytes still have to agree.
    let implied = match uri.mime {
        Some(m) => match allowed(m) {
            Some(c) => Some(c),
            None => {
                cx.error("icon.mime-type", format!("`{m}` is not an allowed icon type (PNG, JPEG, SVG, WebP)"));
                return;
            }
        },
        None => None,
    };
    // A `mimeType` that is not allowed was reported on its own field.
    let declared = declared.and_then(allowed);
    if let (Some(d), Some(i)) = (declared, implied) {
        if d != i {
            cx.error("icon.content", format!("`mimeType` says `{d}` but the `data:` URI says `{i}`"));
        }
    }
    let bytes = if uri.base64 {
        match decode_base64(uri.data) {
            Ok(b) => b,
            Err(why) => {
                cx.error("icon.data", format!("the `data:` URI does not decode: {why}"));
                return;
            }
        }
    } else {
        match percent_decode(uri.data).ok() {
            Some(b) => b,
            None => {
                cx.error("icon.data", "the `data:` URI has a bad percent escape");
                return;
            }
        }
    };
    let max = cx.options().icon_max_bytes;
    if bytes.len() > max {
        cx.error("icon.size", format!("the icon is {} bytes, more than the limit of {max}", bytes.len()));
    }
    let Some(found) = sniff(&bytes) else {
        cx.error("icon.content", "the icon's bytes are not PNG, JPEG, SVG or WebP");
        return;
    };
    if let Some(expected) = declared.or(implied).filter(|e| *e != found) {
        cx.error("icon.content", format!("the icon is declared as `{expected}` but its bytes are `{found}`"));
    }
    // With both given, the URI's own type is held to the bytes too (once, if it differs from `mimeType`).
    if let (Some(d), Some(i)) = (declared, implied) {
        if i != d && i != found {
            cx.error("icon.content", format!("the `data:` URI says `{i}` but the icon's bytes are `{found}`"));
        }
    }
    // An icon over the limit is refused already; its markup is not read.
    if found == "image/svg+xml" && bytes.len() <= max {
        // The basic protocol: consumers MUST take security precautions with icons, whose
        // payload may be executable; the allowlist is that precaution, so all its findings are errors.
        for finding in svg::scan(&bytes) {
            cx.error(finding.rule(), finding.message());
        }
    }
}

fn implied_by_extension(src: &str) -> Option<&'static str> {
    let path = src.split(['?', '#']).next().unwrap_or("").to_ascii_lowercase();
    let ext = path.rsplit('.').next()?;
    match ext {
        "png" => Some("image/png"),
        "jpg" | "jpeg" => Some("image/jpeg"),
        "svg" => Some("image/svg+xml"),
        "webp" => Some("image/webp"),
        _ => None,
    }
}

/// What [`pick`] needs to know about an icon; implemented for every version's `Icon`.
pub trait IconInfo {
    fn src(&self) -> &str;
    fn mime_type(&self) -> Option<&str>;
    /// The `sizes` entries as written, such as `48x48` or `any`; empty when the icon does not say.
    fn sizes(&self) -> Vec<&str>;
    fn theme(&self) -> Option<&str>;
}

/// Whether the validator finds no error in the icon (with the default options).
pub fn acceptable<I: IconInfo + ?Sized>(icon: &I) -> bool {
    acceptable_with(icon, &Options::default())
}

/// [`acceptable`] with the given options (the `data:` size limit; strict mode).
pub fn acceptable_with<I: IconInfo + ?Sized>(icon: &I, options: &Options) -> bool {
    let mut cx = Cx::new(*options);
    check_fields(Some(icon.src()), icon.mime_type(), icon.sizes().into_iter().map(Some), &mut cx);
    cx.finish().is_valid()
}

/// Chooses the icon to show at `size` pixels for a `light` or `dark` theme.
///
/// Only icons the validator accepts count (see [`acceptable`]). Among them it
/// prefers the requested theme (then icons without one), then one that fits
/// any size (`any`, or no `sizes` at all, which SEP-973 says means any size),
/// then the smallest size at least `size`, then the largest one below it.
/// Ties go to the icon listed first.
pub fn pick<'a, I: IconInfo>(icons: &'a [I], size: u32, theme: Option<&str>) -> Option<&'a I> {
    pick_with(icons, size, theme, &Options::default())
}

/// [`pick`] among the icons validation with `options` accepts.
pub fn pick_with<'a, I: IconInfo>(icons: &'a [I], size: u32, theme: Option<&str>, options: &Options) -> Option<&'a I> {
    let rank = |i: &I| {
        let theme_rank = match (theme, i.theme()) {
            (Some(want), Some(has)) if want == has => 2,
            (_, None) => 1,
            (None, Some(_)) => 1,
            _ => 0,
        };
        let sizes = i.sizes();
        let size_rank: i64 = if sizes.is_empty() || sizes.iter().any(|s| s.eq_ignore_ascii_case("any")) {
            i64::MAX
        } else {
            let px: Vec<i64> = sizes.iter().filter_map(|s| size_px(s)).map(i64::from).collect();
            let want = i64::from(size);
            match (px.iter().filter(|p| **p >= want).min(), px.iter().max()) {
                // At least the size wanted: the closer the better.
                (Some(p), _) => i64::MAX / 2 - (p - want),
                // Only smaller ones: the larger the better.
                (None, Some(p)) => *p,
                (None, None) => 0,
            }
        };
        (theme_rank, size_rank)
    };
    let mut best: Option<(&I, (i32, i64))> = None;
    for icon in icons {
        let r = rank(icon);
        // Ranking is cheap; only a candidate that would win is validated (which may decode `data:`).
        if best.as_ref().is_some_and(|(_, b)| r <= *b) || !acceptable_with(icon, options) {
            continue;
        }
        best = Some((icon, r));
    }
    best.map(|(i, _)| i)
}

macro_rules! icon_info {
    ($($feature:literal => $module:ident),*) => {$(
        #[cfg(feature = $feature)]
        impl IconInfo for crate::$module::Icon {
            fn src(&self) -> &str {
                &self.src
            }
            fn mime_type(&self) -> Option<&str> {
                self.mime_type.as_deref()
            }
            fn sizes(&self) -> Vec<&str> {
                self.sizes.iter().flatten().map(String::as_str).collect()
            }
            fn theme(&self) -> Option<&str> {
                self.theme.as_ref().map(|t| t.as_str())
            }
        }
    )*};
}

icon_info!("v2025-11-25" => v2025_11_25, "v2026-07-28" => v2026_07_28);
