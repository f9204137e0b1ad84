//! JSDoc comments: free text plus `@tag value` lines.
//!
//! Tag names are matched here and nowhere else: each tag is given its [`TagKind`] (and a
//! constraint tag its typed [`Constraint`]) as it is read, and every later stage matches
//! those. A new tag the generator acts on is a variant plus a line in [`TagKind::of`].

/// A doc comment split into its prose and its block tags, in source order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Doc {
    pub text: String,
    pub tags: Vec<Tag>,
}

/// One `@name value` block tag.
#[derive(Debug, Clone, PartialEq)]
pub struct Tag {
    pub kind: TagKind,
    /// The name as written, without `@`.
    pub name: String,
    pub value: String,
    /// For a constraint tag: the rule, or why its value is not one (resolve reports that).
    pub rule: Option<Result<Constraint, String>>,
}

/// What a tag means to the generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagKind {
    /// `@description`: the summary (ext-apps style), before the leading prose.
    Description,
    Deprecated,
    Internal,
    Category,
    See,
    Example,
    Nullable,
    Default,
    /// `@TJS-type`: the JSON Schema type (`number` makes a number field a float).
    JsonType,
    /// A rule validation applies: `@minimum`, `@maximum`, `@minItems`, `@maxItems`, `@maxLength`, `@pattern`, `@format`.
    Constraint,
    /// `@overlay replace|merge|extend`: how an overlay declaration applies.
    Overlay,
    /// `@overlayRemove a, b`: fields an `@overlay merge` removes.
    OverlayRemove,
    /// A tag the generator does not know: an error on a field (resolve), since it may state a rule validation would skip.
    Other,
}

/// A rule a constraint tag states about a field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    Minimum(f64),
    Maximum(f64),
    MinItems(usize),
    MaxItems(usize),
    /// At most this many characters (Unicode scalar values, as JSON Schema counts).
    MaxLength(usize),
    /// A regular expression the string must match somewhere (JSON Schema's unanchored `pattern`).
    Pattern(String),
    Format(Format),
}

/// The `@format`s validation knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Uri,
    UriTemplate,
    Byte,
    /// An integer JavaScript holds exactly (`Number.isSafeInteger`): the Tasks extension's `ttlMs` and `pollIntervalMs`.
    Int,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Uri, Format::UriTemplate, Format::Byte, Format::Int];

    /// The name in `@format` and in JSON Schema.
    pub fn name(self) -> &'static str {
        match self {
            Format::Uri => "uri",
            Format::UriTemplate => "uri-template",
            Format::Byte => "byte",
            Format::Int => "int",
        }
    }
}

impl TagKind {
    /// The meaning of a tag name: the one place a name is matched.
    pub fn of(name: &str) -> TagKind {
        match name {
            "description" => TagKind::Description,
            "deprecated" => TagKind::Deprecated,
            "internal" => TagKind::Internal,
            "category" => TagKind::Category,
            "see" => TagKind::See,
            "example" => TagKind::Example,
            "nullable" => TagKind::Nullable,
            "default" => TagKind::Default,
            "TJS-type" => TagKind::JsonType,
            "minimum" | "maximum" | "minItems" | "maxItems" | "maxLength" | "pattern" | "format" => TagKind::Constraint,
            "overlay" => TagKind::Overlay,
            "overlayRemove" => TagKind::OverlayRemove,
            _ => TagKind::Other,
        }
    }
}

impl Tag {
    pub fn new(name: String, value: String) -> Tag {
        let kind = TagKind::of(&name);
        let rule = (kind == TagKind::Constraint).then(|| Constraint::parse(&name, value.trim()));
        Tag { kind, name, value, rule }
    }

    /// The rule of a constraint tag whose value is valid.
    pub fn constraint(&self) -> Option<&Constraint> {
        self.rule.as_ref()?.as_ref().ok()
    }
}

impl Constraint {
    fn parse(name: &str, value: &str) -> Result<Constraint, String> {
        let number = || value.parse::<f64>().map_err(|_| format!("`@{name} {value}` is not a number"));
        let count = || value.parse::<usize>().map_err(|_| format!("`@{name} {value}` is not a count"));
        match name {
            "minimum" => number().map(Constraint::Minimum),
            "maximum" => number().map(Constraint::Maximum),
            "minItems" => count().map(Constraint::MinItems),
            "maxItems" => count().map(Constraint::MaxItems),
            "maxLength" => count().map(Constraint::MaxLength),
            "pattern" if value.is_empty() => Err("`@pattern` needs a regular expression".to_string()),
            // Compiled as the validator will (regex-lite), so a pattern that reaches the generated code runs.
            "pattern" => match regex_lite::Regex::new(value) {
                Ok(_) => Ok(Constraint::Pattern(value.to_string())),
                Err(e) => Err(format!("`@pattern {value}` is not a regular expression the validator can run: {}", e.to_string().lines().last().unwrap_or_default().trim())),
            },
            _ => match Format::ALL.into_iter().find(|f| f.name() == value) {
                Some(f) => Ok(Constraint::Format(f)),
                None => Err(format!("`@format {value}` is not supported (known: {})", Format::ALL.map(Format::name).join(", "))),
            },
        }
    }
}

impl Doc {
    /// Parses the inside of a `/** ... */` comment (without the delimiters).
    pub fn parse(raw: &str) -> Doc {
        let lines: Vec<&str> = raw
            .lines()
            .map(|l| {
                let t = l.trim_start();
                let t = t.strip_prefix('*').unwrap_or(t);
                t.strip_prefix(' ').unwrap_or(t).trim_end()
            })
            .collect();
        let mut doc = Doc::default();
        let mut text = Vec::new();
        let mut current: Option<(String, Vec<String>)> = None;
        let mut in_fence = false;
        for line in lines {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            let tag_start = !in_fence && line.starts_with('@');
            if tag_start {
                if let Some((name, body)) = current.take() {
                    doc.tags.push(Tag::new(name, join_trim(&body)));
                }
                let rest = &line[1..];
                let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                current = Some((name.to_string(), vec![value.to_string()]));
            } else if let Some((_, body)) = current.as_mut() {
                body.push(line.to_string());
            } else {
                text.push(line.to_string());
            }
        }
        if let Some((name, body)) = current.take() {
            doc.tags.push(Tag::new(name, join_trim(&body)));
        }
        doc.text = join_trim(&text);
        doc
    }

    /// The value of the first tag of this kind.
    pub fn tag(&self, kind: TagKind) -> Option<&str> {
        self.tags.iter().find(|t| t.kind == kind).map(|t| t.value.as_str())
    }

    pub fn has_tag(&self, kind: TagKind) -> bool {
        self.tags.iter().any(|t| t.kind == kind)
    }

    /// The valid constraints, in source order.
    pub fn constraints(&self) -> impl Iterator<Item = &Constraint> {
        self.tags.iter().filter_map(Tag::constraint)
    }

    /// The text a reader should see: `@description` (ext-apps style) wins over the leading prose.
    pub fn summary(&self) -> String {
        match self.tag(TagKind::Description) {
            Some(d) if self.text.is_empty() => d.to_string(),
            Some(d) => format!("{d}\n\n{}", self.text),
            None => self.text.clone(),
        }
    }
}

fn join_trim(lines: &[String]) -> String {
    let mut start = 0;
    let mut end = lines.len();
    while start < end && lines[start].trim().is_empty() {
        start += 1;
    }
    while end > start && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    lines[start..end].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_text_and_tags() {
        let d = Doc::parse("*\n * Hello\n * world.\n *\n * @TJS-type number\n * @minimum 0\n * @deprecated Use X.\n *   Really.\n ");
        assert_eq!(d.text, "Hello\nworld.");
        assert_eq!(d.tag(TagKind::JsonType), Some("number"));
        assert_eq!(d.tag(TagKind::Constraint), Some("0"));
        assert_eq!(d.constraints().collect::<Vec<_>>(), [&Constraint::Minimum(0.0)]);
        assert_eq!(d.tag(TagKind::Deprecated), Some("Use X.\n  Really."));
    }

    #[test]
    fn constraint_values_are_typed_or_explained() {
        let d = Doc::parse("* @maximum 1.5\n * @maxItems 3\n * @format uri-template\n * @minItems -1\n * @format date\n * @nullable\n");
        assert_eq!(d.constraints().collect::<Vec<_>>(), [&Constraint::Maximum(1.5), &Constraint::MaxItems(3), &Constraint::Format(Format::UriTemplate)]);
        let problems: Vec<&str> = d.tags.iter().filter_map(|t| t.rule.as_ref()?.as_ref().err()).map(String::as_str).collect();
        assert_eq!(problems, ["`@minItems -1` is not a count", "`@format date` is not supported (known: uri, uri-template, byte, int)"]);
        assert_eq!(d.tags.last().map(|t| t.kind), Some(TagKind::Nullable));
    }

    #[test]
    fn length_and_pattern_are_typed_or_explained() {
        let d = Doc::parse("* @maxLength 64\n * @pattern ^https://\n * @maxLength -1\n * @pattern (\n * @pattern\n * @maxlength 3\n");
        assert_eq!(d.constraints().collect::<Vec<_>>(), [&Constraint::MaxLength(64), &Constraint::Pattern("^https://".into())]);
        let problems: Vec<&str> = d.tags.iter().filter_map(|t| t.rule.as_ref()?.as_ref().err()).map(String::as_str).collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[1].starts_with("`@pattern (` is not a regular expression the validator can run"), "{}", problems[1]);
        assert_eq!(problems[2], "`@pattern` needs a regular expression");
        // Tag names are case-sensitive: `@maxlength` is no constraint, and resolve refuses it on a field.
        assert_eq!(d.tags.last().map(|t| t.kind), Some(TagKind::Other));
    }

    #[test]
    fn at_signs_in_code_fences_are_text() {
        let d = Doc::parse("* @example\n * ```ts\n * @decorator\n * ```\n");
        assert_eq!(d.tags.len(), 1);
        assert!(d.tags[0].value.contains("@decorator"));
    }
}
