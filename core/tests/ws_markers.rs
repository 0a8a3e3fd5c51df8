//! The frames a shell leaves unread ([`Dialect::markers`]): a tool call is read whatever else
//! the frame holds and however it spells its type (a `\u00XX` escape included), and a frame
//! that holds a marker somewhere else (a transcript quoting it, a field of an audio frame, the
//! key of another object, an error with another code) is read and left alone. Each frame goes
//! through `ws_support::receive`, which also checks that a frame the bridge acts on holds a
//! marker (and records the frames for tests/ws-frames, which feeds them to the package).

#[allow(dead_code)]
mod ws_support;

use client_tools_core::adapters::ws::openai::ACTIVE_RESPONSE_CODE;
use client_tools_core::adapters::ws::{Dialect, RespondAfterResult};
use client_tools_core::calls::Returned;
use ws_support::{at, bridge, drain, receive};

/// Each frame and whether it is a tool call, fed in order to one bridge of `dialect` (each
/// handler finishing at once); the types of the frames sent after each.
fn frames(dialect: Dialect, cases: &[(&str, bool)]) -> Vec<Vec<String>> {
    let mut b = bridge(dialect, RespondAfterResult::Auto);
    let mut sent = Vec::new();
    for (i, (text, is_call)) in cases.iter().enumerate() {
        assert_eq!(receive(&mut b, text, at(i as u64)), *is_call, "{text}");
        let mut out = drain(&mut b);
        for (call_id, _, _) in out.runs.clone() {
            b.finish(&call_id, Returned::text("done"), at(i as u64));
            out.sent.extend(drain(&mut b).sent);
        }
        sent.push(
            out.sent
                .iter()
                .map(|f| f["type"].as_str().unwrap().to_owned())
                .collect(),
        );
    }
    sent
}

#[test]
fn the_markers_are_the_quoted_types_and_codes_the_readers_look_for() {
    for d in [Dialect::Cartesia, Dialect::ElevenLabs] {
        assert_eq!(d.markers(), ["\"client_tool_call\"", "\\u00"]);
    }
    let openai = Dialect::OpenAiRealtime.markers();
    assert!(openai.contains(&format!("\"{ACTIVE_RESPONSE_CODE}\"").as_str()));
    assert_eq!(openai.len(), 5);
}

#[test]
fn cartesia_reads_calls_however_written_and_leaves_the_rest() {
    frames(
        Dialect::Cartesia,
        &[
            (
                r#"{"type":"client\u005ftool_call","tool_call_id":"e1","tool_name":"echo","parameters":{"text":"a"}}"#,
                true,
            ),
            (
                r#"{"type":"\u0063lient_tool_call","tool_call_id":"e2","tool_name":"echo","parameters":{"text":"b"}}"#,
                true,
            ),
            (
                r#"{"tool_name":"echo","parameters":{"text":"c"},"tool_call_id":"e3","type":"client_tool_call"}"#,
                true,
            ),
            (
                r#"{"type":"media_output","stream_id":"s","media":{"payload":"Y2xpZW50X3Rvb2xfY2FsbA=="},"note":"client_tool_call"}"#,
                false,
            ),
            (
                r#"{"type":"transcript","text":"the \"client_tool_call\" frame"}"#,
                false,
            ),
            (
                r#"{"type":"transcript","text":"caf\u00e9 client_tool_call"}"#,
                false,
            ),
            (
                r#"{"type":"client_tool_result","tool_call_id":"e1","client_tool_call":"client_tool_call"}"#,
                false,
            ),
            (
                r#"{"type":"client_tool_calls","tool_call_id":"e4","tool_name":"echo"}"#,
                false,
            ),
        ],
    );
}

#[test]
fn elevenlabs_reads_calls_however_written_and_leaves_the_rest() {
    frames(
        Dialect::ElevenLabs,
        &[
            (
                r#"{"type":"client_tool_call","client_tool_call":{"tool_name":"echo","tool_call_id":"e1","parameters":{"text":"a"}}}"#,
                true,
            ),
            (
                r#"{"type":"client_tool\u005Fcall","client_tool_call":{"tool_name":"echo","tool_call_id":"e2","parameters":{"text":"b"}}}"#,
                true,
            ),
            (
                r#"{"type":"audio","audio_event":{"audio_base_64":"SGVsbG8=","event_id":7},"client_tool_call":{"tool_name":"echo","tool_call_id":"x"}}"#,
                false,
            ),
            (
                r#"{"type":"agent_response","agent_response_event":{"agent_response":"I sent a \"client_tool_call\"."}}"#,
                false,
            ),
            (
                r#"{"type":"user_transcript","user_transcription_event":{"user_transcript":"client_tool_call"}}"#,
                false,
            ),
            (
                r#"{"type":"ping","ping_event":{"event_id":3,"ping_ms":null}}"#,
                false,
            ),
        ],
    );
}

#[test]
fn openai_reads_calls_and_the_response_state_however_written_and_leaves_the_rest() {
    let code = ACTIVE_RESPONSE_CODE;
    let busy =
        format!(r#"{{"type":"error","error":{{"type":"invalid_request_error","code":"{code}"}}}}"#);
    let other =
        format!(r#"{{"type":"error","error":{{"code":"invalid_value","message":"not {code}"}}}}"#);
    let sent = frames(
        Dialect::OpenAiRealtime,
        &[
            (
                r#"{"type":"response.cr\u0065ated","response":{"id":"r1"}}"#,
                false,
            ),
            (
                r#"{"type":"response.function_call_arguments.d\u006fne","call_id":"o1","name":"echo","arguments":"{\"text\":\"a\"}"}"#,
                true,
            ),
            (
                r#"{"type":"response.output_audio.delta","delta":"AAAA","note":"\"response.done\""}"#,
                false,
            ),
            (
                r#"{"type":"response.output_audio_transcript.delta","delta":"response.done"}"#,
                false,
            ),
            (
                r#"{"type":"response.done","response":{"output":[{"type":"function_call","call_id":"o1","name":"echo","arguments":"{\"text\":\"a\"}"}]}}"#,
                true,
            ),
            (&busy, false),
            (&other, false),
            (
                r#"{"type":"conversation.item.created","item":{"content":[{"transcript":"response.function_call_arguments.done"}]}}"#,
                false,
            ),
        ],
    );
    // The call's output waits for the response the escaped `response.created` began (no
    // response.create while it is active); `response.done` asks for the next one, and the
    // error with the active-response code (not the other) makes it ask again later.
    let expected: [&[&str]; 8] = [
        &[],
        &["conversation.item.create"],
        &[],
        &[],
        &["response.create"],
        &[],
        &[],
        &[],
    ];
    assert_eq!(sent, expected);
}
