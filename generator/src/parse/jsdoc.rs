//! JSDoc comments: free text plus `@tag value` lines.

/// A doc comment split into its prose and its block tags, in source order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Doc {
    pub text: String,
    pub tags: Vec<(String, String)>,
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
                    doc.tags.push((name, join_trim(&body)));
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
            doc.tags.push((name, join_trim(&body)));
        }
        doc.text = join_trim(&text);
        doc
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub fn has_tag(&self, name: &str) -> bool {
        self.tags.iter().any(|(n, _)| n == name)
    }

    /// The text a reader should see: `@description` (ext-apps style) wins over the leading prose.
    pub fn summary(&self) -> String {
        match self.tag("description") {
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
        assert_eq!(d.tag("TJS-type"), Some("number"));
        assert_eq!(d.tag("minimum"), Some("0"));
        assert_eq!(d.tag("deprecated"), Some("Use X.\n  Really."));
    }

    #[test]
    fn at_signs_in_code_fences_are_text() {
        let d = Doc::parse("* @example\n * ```ts\n * @decorator\n * ```\n");
        assert_eq!(d.tags.len(), 1);
        assert!(d.tags[0].1.contains("@decorator"));
    }
}
