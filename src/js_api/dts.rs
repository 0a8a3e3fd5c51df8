//! The `.d.ts` files against the Rust types (a native test): each option set's interface must
//! list exactly the fields its serde type reads, so that neither can gain or lose an option
//! alone. The fields of a type are what its derived `Deserialize` names (serde's own list, the
//! one the reader checks unknown keys against); an interface's are its members at the top level.
#![cfg(test)]

use serde::de::{self, Deserialize, Visitor};

/// The fields `T`'s derived `Deserialize` asks for, in its order.
fn fields<'de, T: Deserialize<'de>>() -> Vec<&'static str> {
    struct Probe;
    #[derive(Debug)]
    struct Stop(Option<&'static [&'static str]>);
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("stop")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Stop(None)
        }
    }
    impl<'de> de::Deserializer<'de> for Probe {
        type Error = Stop;
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            Err(Stop(Some(fields)))
        }
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop(None))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
            ignored_any
        }
    }
    match T::deserialize(Probe) {
        Err(Stop(Some(fields))) => fields.to_vec(),
        _ => panic!("{} is not read as a struct", std::any::type_name::<T>()),
    }
}

/// The members of `export interface {name}` in `dts`, in their order: each top-level line of
/// its body that starts a property (`key?: …`) or a method (`key(…)`), comments left out.
fn members(dts: &str, name: &str) -> Vec<String> {
    // Comments blanked, so that prose with braces or colons is not read as code.
    let mut code = String::with_capacity(dts.len());
    let mut rest = dts;
    while let Some(start) = rest.find("/*") {
        code.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("an unclosed comment") + start + 2;
        code.extend(rest[start..end].chars().filter(|&c| c == '\n'));
        rest = &rest[end..];
    }
    code.push_str(rest);
    let header = format!("export interface {name}");
    let mut lines = code.lines().skip_while(|l| {
        !l.starts_with(&header) || l[header.len()..].starts_with(char::is_alphanumeric)
    });
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no `{header}` in the .d.ts"));
    // An interface that extends another has its members too (`WsToolDefinition`): what
    // follows its type parameters (`<…>`, skipped whole) is `extends Base<…> {`.
    let mut rest = &first[header.len()..];
    if rest.starts_with('<') {
        let mut open = 0;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                open += i32::from(c == '<') - i32::from(c == '>');
                open == 0
            })
            .expect("type parameters closed")
            .0;
        rest = &rest[end + 1..];
    }
    let mut out = match rest.trim_start().strip_prefix("extends ") {
        Some(base) => {
            let base: String = base.chars().take_while(|c| c.is_alphanumeric()).collect();
            members(dts, &base)
        }
        None => Vec::new(),
    };
    let mut depth = 0i32;
    for line in lines {
        let line = line.split("//").next().unwrap_or_default();
        if depth == 0 {
            let t = line.trim_start();
            if t.starts_with('}') {
                return out;
            }
            let key: String = t
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = t[key.len()..].trim_start();
            if !key.is_empty()
                && (after.starts_with(':') || after.starts_with("?:") || after.starts_with('('))
            {
                out.push(key);
            }
        }
        depth += line.matches(['{', '(', '[']).count() as i32;
        depth -= line.matches(['}', ')', ']']).count() as i32;
    }
    panic!("`{header}` is not closed");
}

/// `interface` in `file` lists exactly `T`'s fields.
fn same<'de, T: Deserialize<'de>>(file: &str, dts: &str, interface: &str) {
    let rust = fields::<T>();
    let ts = members(dts, interface);
    let only_rust: Vec<_> = rust
        .iter()
        .filter(|f| !ts.iter().any(|t| t == *f))
        .collect();
    let only_ts: Vec<_> = ts.iter().filter(|t| !rust.contains(&t.as_str())).collect();
    assert!(
        only_rust.is_empty() && only_ts.is_empty(),
        "{file} `{interface}` and the Rust type `{}` differ: only in Rust {only_rust:?}, only in the .d.ts {only_ts:?}",
        std::any::type_name::<T>()
    );
}

#[test]
fn each_option_set_in_the_dts_has_the_fields_of_its_rust_type() {
    let dts = [
        include_str!("client.d.ts"),
        include_str!("ws.d.ts"),
        include_str!("registry.d.ts"),
        include_str!("turns.d.ts"),
        include_str!("webmcp.d.ts"),
        include_str!("page_tools.d.ts"),
    ]
    .concat();
    same::<super::options::ClientOptions>("client.d.ts", &dts, "ClientOptions");
    // A tool definition as every transport reads it: `expectsResponse` is the voice agents'.
    same::<super::options::ToolDefinition>("ws.d.ts", &dts, "WsToolDefinition");
    #[cfg(feature = "webmcp")]
    same::<super::options::WebMcpOptions>("webmcp.d.ts", &dts, "WebMCPOptions");
    same::<super::options::TurnToolsOptions>("turns.d.ts", &dts, "TurnToolsOptions");
    same::<super::options::WsAttachOptions>("ws.d.ts", &dts, "WsAttachOptions");
    same::<super::options::WsToolsOptions>("ws.d.ts", &dts, "WsToolsOptions");
}

#[test]
fn the_check_sees_a_field_on_one_side_only() {
    let dts = "/** a { b: c } */\nexport interface A<T extends { x: 1 }> {\n  /** one: */\n  one: string;\n  two?: { inner: number };\n  three(x: { y: 1 }): void;\n}\nexport interface AB extends A {\n  four: 4;\n}\n";
    assert_eq!(members(dts, "A"), ["one", "two", "three"]);
    assert_eq!(members(dts, "AB"), ["one", "two", "three", "four"]);
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct A {
        one: String,
        two_more: u8,
    }
    assert_eq!(fields::<A>(), ["one", "twoMore"]);
    let differ = std::panic::catch_unwind(|| same::<A>("test", dts, "A"));
    let message = *differ
        .expect_err("they differ")
        .downcast::<String>()
        .unwrap();
    assert!(
        message.ends_with(r#"only in Rust ["twoMore"], only in the .d.ts ["two", "three"]"#),
        "{message}"
    );
}
