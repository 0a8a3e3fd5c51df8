//! Reading a JS option object into a serde type: the type's derived `Deserialize` names its
//! fields (camelCase) and their types; each field's value is read by serde-wasm-bindgen; this
//! file adds what a person needs from a message: the field's path (`tools[2].timeoutMs`), what
//! it must be and what it was, and for a key the type does not have, the nearest one it has
//! (`whenHiden: unknown option; did you mean whenHidden?`).
//!
//! One reader for every option set, so that each option type's `Deserialize` is built once, over
//! this deserializer, and each field type once, over serde-wasm-bindgen's: the JS API's
//! (`crate::js_api`) and client-tools/testing's `new TestAgent(limits)` (`crate::testing`).

// client-tools/testing's module (`testing-js` without `js-api`) reads only counts.
#![cfg_attr(not(feature = "js-api"), allow(dead_code))]

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use wasm_bindgen::{JsCast, JsValue};

/// A message that names the field (`timeoutMs: must be a number, got a string`).
pub(crate) struct Wrong(pub(crate) String);

impl std::fmt::Display for Wrong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::fmt::Debug for Wrong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Wrong {}
impl de::Error for Wrong {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Wrong(msg.to_string())
    }
}

/// Reads the option object `v` as a `T`. `at` goes before each field's name in a message
/// (`"tools[0]."`, `"options."`, or `""` at the top level). Anything but an object is refused
/// (`what`: the name of the whole, `"options"`); a key `T` does not have is refused naming the
/// nearest it has; a field that does not fit is refused naming it, what it must be and what it
/// was. An absent field is read from `undefined`.
pub(crate) fn object<T: de::DeserializeOwned>(v: &JsValue, at: &str) -> Result<T, String> {
    T::deserialize(Object { value: v, at }).map_err(|w| w.0)
}

/// Reads an entry point's optional options object (named `options` in messages): absent
/// (`undefined` or `null`) is `T`'s default; else as [`object`], refused as `invalid_option`.
pub(crate) fn options<T: de::DeserializeOwned + Default>(v: &JsValue) -> Result<T, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    object(v, "options.").map_err(|m| crate::js::invalid(&m))
}

/// The deserializer of one option object: only a struct can be read from it.
struct Object<'a> {
    value: &'a JsValue,
    at: &'a str,
}

impl<'de> de::Deserializer<'de> for Object<'_> {
    type Error = Wrong;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Wrong> {
        if !self.value.is_object() || self.value.is_function() {
            let what = self.at.strip_suffix('.').unwrap_or("options");
            return Err(Wrong(format!(
                "{}: must be an object, got {}",
                if what.is_empty() { "options" } else { what },
                crate::js::describe(self.value)
            )));
        }
        crate::browser::keys::check(self.value, fields, self.at).map_err(Wrong)?;
        // As a sequence of its fields in the type's order (as bincode reads a struct): the
        // derived code for a sequence is a third the size of the one for a map (no slot, no
        // duplicate check and no missing-field path per field), and every field is read.
        visitor.visit_seq(Fields {
            obj: self.value,
            at: self.at,
            fields,
            next: 0,
        })
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Wrong> {
        Err(Wrong("an option object is read as a struct".into()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The fields of an option object, in the type's order, each read from `obj[field]` (a getter
/// that throws reads as `undefined`).
struct Fields<'a> {
    obj: &'a JsValue,
    at: &'a str,
    fields: &'static [&'static str],
    next: usize,
}

impl<'de> SeqAccess<'de> for Fields<'_> {
    type Error = Wrong;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Wrong> {
        let Some(&key) = self.fields.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        let value = crate::js::get(self.obj, key);
        seed.deserialize(serde_wasm_bindgen::Deserializer::from(value))
            .map(Some)
            .map_err(|e| self.wrong(e))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len() - self.next)
    }
}

impl Fields<'_> {
    /// `{at}{key}: {what is wrong}`, for the field just read.
    #[inline(never)]
    fn wrong(&self, e: serde_wasm_bindgen::Error) -> Wrong {
        let key = self.fields[self.next - 1];
        Wrong(format!(
            "{}{key}: {}",
            self.at,
            crate::js::error_text(&e.into())
        ))
    }
}

/// A JS value of type `T` kept as it is (a function, a signal): serde-wasm-bindgen's
/// `preserve`, refused unless `T`'s `instanceof` holds.
pub(crate) struct Js<T>(pub(crate) T);

/// What a JS value kept as it is must be, for the message when it is not.
pub(crate) trait Expected: JsCast {
    /// `"a function"`, as in `must be a function, got a string`.
    const EXPECTED: &'static str;
}
impl Expected for js_sys::Function {
    const EXPECTED: &'static str = "a function";
}
impl Expected for web_sys::AbortSignal {
    const EXPECTED: &'static str = "an AbortSignal";
}

impl<'de, T: Expected> de::Deserialize<'de> for Js<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        v.dyn_into::<T>()
            .map(Js)
            .map_err(|v| expected(T::EXPECTED, &v))
    }
}

/// A JS value kept as it is, whatever it is (`token`, `tools`: read further by their own rules).
pub(crate) struct Any(pub(crate) JsValue);

impl<'de> de::Deserialize<'de> for Any {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_wasm_bindgen::preserve::deserialize(d).map(Any)
    }
}

/// A whole number of at least 1 (a count, a number of milliseconds), or a message that says
/// what it was: the browser writes the number (Rust's float formatting would cost ~14 KB).
pub(crate) struct Count(pub(crate) u64);

impl<'de> de::Deserialize<'de> for Count {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        match v.as_f64() {
            Some(n) if n.fract() == 0.0 && (1.0..=9.0e15).contains(&n) => Ok(Count(n as u64)),
            Some(_) => Err(de::Error::custom(format_args!(
                "must be a whole number of at least 1, got {}",
                js_sys::Number::from(v)
                    .to_string_with_radix(10)
                    .map(String::from)
                    .unwrap_or_default()
            ))),
            None => Err(expected("a number", &v)),
        }
    }
}

/// A string.
pub(crate) struct Text(pub(crate) String);

impl<'de> de::Deserialize<'de> for Text {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        v.as_string()
            .map(Text)
            .ok_or_else(|| expected("a string", &v))
    }
}

/// A boolean.
pub(crate) struct Flag(pub(crate) bool);

impl<'de> de::Deserialize<'de> for Flag {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: JsValue = serde_wasm_bindgen::preserve::deserialize(d)?;
        v.as_bool()
            .map(Flag)
            .ok_or_else(|| expected("a boolean", &v))
    }
}

/// `must be a string, got a number`: what it must be, and what it was by its JS type (never its
/// text: it may be long). The field's path goes before it (`Fields::wrong`).
fn expected<E: de::Error>(what: &str, got: &JsValue) -> E {
    E::custom(format_args!(
        "must be {what}, got {}",
        crate::js::describe(got)
    ))
}
