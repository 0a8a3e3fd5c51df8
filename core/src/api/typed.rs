//! Typed arguments: a call's arguments deserialized into the handler's own type, or the reason
//! they do not fit, naming the field.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The arguments as an `A`, or what does not fit, naming the field by its path
/// (`rows[2].id: invalid type: string "x", expected u32`): the model reads it and can correct
/// the call. A schema (`Tool::parameters`) is checked first when the tool has one.
pub fn typed_arguments<A: DeserializeOwned>(arguments: Map<String, Value>) -> Result<A, String> {
    serde_path_to_error::deserialize(Value::Object(arguments)).map_err(|e| {
        let path = e.path().to_string();
        match path.as_str() {
            "." | "" => format!("the arguments do not fit: {}", e.inner()),
            _ => format!("the arguments do not fit: {path}: {}", e.inner()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Row {
        id: u32,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Args {
        row_id: String,
        #[serde(default)]
        rows: Vec<Row>,
    }

    fn args(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_field_that_does_not_fit_is_named() {
        let ok: Args = typed_arguments(args(serde_json::json!({"row_id": "7"}))).unwrap();
        assert_eq!(ok.row_id, "7");
        let e = typed_arguments::<Args>(args(serde_json::json!({"row_id": 7}))).unwrap_err();
        assert!(
            e.starts_with("the arguments do not fit: row_id: invalid type"),
            "{e}"
        );
        let e = typed_arguments::<Args>(args(
            serde_json::json!({"row_id": "7", "rows": [{"id": 1}, {"id": "x"}]}),
        ))
        .unwrap_err();
        assert!(
            e.starts_with("the arguments do not fit: rows[1].id: invalid type"),
            "{e}"
        );
        let e = typed_arguments::<Args>(Map::new()).unwrap_err();
        assert_eq!(e, "the arguments do not fit: missing field `row_id`");
    }
}
