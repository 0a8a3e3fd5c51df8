//! Behaviour the conformance corpus does not reach: the size cap, reconnects, the BOM across
//! chunks, the id flag, number edges. The corpus itself runs in `tests/sse_corpus.rs`.

use super::{Event, Item, Parser};

/// Feeds `chunks`, then finishes; returns every item with its id flag.
fn run(parser: &mut Parser, chunks: &[&[u8]]) -> Vec<(Item, bool)> {
    let mut items = Vec::new();
    for chunk in chunks {
        parser.feed_with_id_flag(chunk, &mut |item, flag| items.push((item.to_owned(), flag)));
    }
    parser.finish(&mut |item| items.push((item.to_owned(), false)));
    items
}

/// The same input as one chunk and as 1-byte chunks must give `expect`.
fn check(max: usize, input: &[u8], expect: &[Item]) {
    let whole: Vec<Item> = run(&mut Parser::with_max_event_bytes(max), &[input])
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        whole,
        expect,
        "whole input {:?}",
        String::from_utf8_lossy(input)
    );
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    let split: Vec<Item> = run(&mut Parser::with_max_event_bytes(max), &bytes)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    assert_eq!(split, expect, "1-byte chunks");
}

fn event(event_type: &str, data: &str, id: &str) -> Item {
    Item::Event(Event {
        event_type: event_type.into(),
        data: data.into(),
        id: id.into(),
    })
}

#[test]
fn an_event_over_the_cap_is_dropped_and_parsing_resumes_after_its_blank_line() {
    // The first block reaches 5 + 13 = 18 bytes at its second line, over a cap of 16; its
    // third line is skipped but counted, and its id (read before the cap) is still committed.
    check(
        16,
        b"id: 1\ndata: 0123456\r\ndata: more\r\n\r\ndata: ok\n\n",
        &[Item::Oversized { bytes: 28 }, event("message", "ok", "1")],
    );
}

#[test]
fn an_event_exactly_at_the_cap_is_kept() {
    check(15, b"event: e\ndata: x\n\n", &[event("e", "x", "")]);
    check(
        14,
        b"event: e\ndata: x\n\n",
        &[Item::Oversized { bytes: 15 }],
    );
}

#[test]
fn a_long_partial_line_over_the_cap_is_not_buffered() {
    let mut parser = Parser::with_max_event_bytes(100);
    let mut items = Vec::new();
    parser.feed(b"data: ", &mut |i| items.push(i.to_owned()));
    for _ in 0..1000 {
        parser.feed(&[b'x'; 1000], &mut |i| items.push(i.to_owned()));
    }
    assert!(items.is_empty());
    assert!(
        parser.line.capacity() <= 1024,
        "held {}",
        parser.line.capacity()
    );
    parser.feed(b"\n\ndata: next\n\n", &mut |i| items.push(i.to_owned()));
    assert_eq!(
        items,
        [
            Item::Oversized {
                bytes: 6 + 1_000_000
            },
            event("message", "next", "")
        ]
    );
}

#[test]
fn an_oversized_block_cut_by_the_end_of_the_stream_is_dropped_silently() {
    check(4, b"data: 123456", &[]);
}

#[test]
fn comments_are_reported_and_dispatch_nothing() {
    check(
        1 << 20,
        b": keep-alive\n\n:\r\ndata: x\n\n",
        &[Item::Comment, Item::Comment, event("message", "x", "")],
    );
}

#[test]
fn retry_saturates_and_needs_at_least_one_digit() {
    check(
        1 << 20,
        b"retry: 99999999999\nretry:\nretry: 1 \nretry: 0\n\n",
        &[Item::Retry(u32::MAX), Item::Retry(0)],
    );
}

#[test]
fn invalid_utf8_reads_as_replacement_characters() {
    check(
        1 << 20,
        b"data: a\xFFb\xE2\x80\ndata: \x80\xE2\x80\xA6\n\n",
        &[event("message", "a\u{FFFD}b\u{FFFD}\n\u{FFFD}\u{2026}", "")],
    );
}

#[test]
fn a_bom_split_over_chunks_is_stripped_and_a_bom_prefix_is_content() {
    let mut parser = Parser::new();
    let items = run(&mut parser, &[b"\xEF", b"\xBB", b"\xBFdata: x\n\n"]);
    assert_eq!(items, [(event("message", "x", ""), false)]);
    // EF BB then `d`: no BOM, so the line's field name is "\u{FFFD}data", which is ignored.
    let items = run(&mut parser, &[b"\xEF\xBB", b"data: x\n\ndata: y\n\n"]);
    assert_eq!(items, [(event("message", "y", ""), false)]);
}

#[test]
fn a_reconnect_keeps_the_last_event_id_and_drops_the_partial_block() {
    let mut parser = Parser::new();
    let mut items = Vec::new();
    parser.feed(b"id: 5\ndata: a\n\nid: 6\ndata: cut", &mut |i| {
        items.push(i.to_owned())
    });
    assert_eq!(parser.last_event_id(), "5");
    parser.reset_for_reconnect();
    parser.feed(b"\xEF\xBB\xBFdata: b\n\n", &mut |i| {
        items.push(i.to_owned())
    });
    assert_eq!(
        items,
        [event("message", "a", "5"), event("message", "b", "5")]
    );
}

#[test]
fn resuming_from_a_known_id_drops_the_partial_block_and_carries_that_id() {
    let mut parser = Parser::new();
    let mut items = Vec::new();
    parser.feed(b"id: 5\ndata: a\n\nid: 6\ndata: cut", &mut |i| {
        items.push(i.to_owned())
    });
    parser.resume_from("41").unwrap();
    assert_eq!(parser.last_event_id(), "41");
    // A BOM is looked for again, as on any new connection.
    parser.feed(b"\xEF\xBB\xBFdata: b\n\nid\ndata: c\n\n", &mut |i| {
        items.push(i.to_owned())
    });
    assert_eq!(
        items,
        [
            event("message", "a", "5"),
            event("message", "b", "41"),
            event("message", "c", "")
        ]
    );
    // An empty ID resumes with no Last-Event-ID.
    parser.resume_from("").unwrap();
    assert_eq!(parser.last_event_id(), "");
}

#[test]
fn an_id_no_stream_can_yield_is_refused_and_changes_nothing() {
    let mut parser = Parser::new();
    parser.feed(b"id: 5\n\n", &mut |_| {});
    for (id, byte, at) in [("a\0", 0, 1), ("\nb", b'\n', 0), ("ab\rc", b'\r', 2)] {
        let err = parser.resume_from(id).unwrap_err();
        assert_eq!((err.byte, err.at), (byte, at), "{id:?}");
        assert!(err.to_string().contains(&format!("at byte {at}")), "{err}");
    }
    assert_eq!(parser.last_event_id(), "5");
}

#[test]
fn the_id_flag_marks_events_whose_own_block_had_an_id() {
    let items = run(
        &mut Parser::new(),
        &[b"id: 1\ndata: a\n\ndata: b\n\nid: \0\ndata: c\n\nid\ndata: d\n\n"],
    );
    let flags: Vec<bool> = items.iter().map(|(_, f)| *f).collect();
    assert_eq!(flags, [true, false, false, true]);
    assert!(matches!(&items[3].0, Item::Event(e) if e.id.is_empty()));
}

#[test]
fn a_blank_line_without_data_still_commits_the_id() {
    let mut parser = Parser::new();
    let items = run(&mut parser, &[b"id: 9\n\n"]);
    assert!(items.is_empty());
    assert_eq!(parser.last_event_id(), "9");
}

#[test]
fn a_line_split_over_many_chunks_is_read_whole() {
    let mut input = b"data: ".to_vec();
    input.extend((0..300_000u32).map(|i| b'a' + (i % 26) as u8));
    input.extend_from_slice(b"\r\n\r\n");
    let mut parser = Parser::new();
    let mut items = Vec::new();
    for chunk in input.chunks(1024) {
        parser.feed(chunk, &mut |i| items.push(i.to_owned()));
    }
    assert_eq!(items.len(), 1);
    assert!(matches!(&items[0], Item::Event(e) if e.data.as_bytes() == &input[6..input.len() - 4]));
}

#[test]
fn a_data_line_streamed_into_the_data_buffer_still_obeys_the_cap() {
    let input = b"data: a\ndata:0123456789abcdefghij\n\ndata:\n\ndata: ok\n\n";
    // Lines of 7 + 25 bytes: the second goes over a cap of 30 while it is still arriving.
    let expect = [
        Item::Oversized { bytes: 32 },
        event("message", "", ""),
        event("message", "ok", ""),
    ];
    for size in 1..input.len() {
        let chunks: Vec<&[u8]> = input.chunks(size).collect();
        let items: Vec<Item> = run(&mut Parser::with_max_event_bytes(30), &chunks)
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        assert_eq!(items, expect, "chunks of {size}");
    }
    let chunks: Vec<&[u8]> = input.chunks(4).collect();
    let items: Vec<Item> = run(&mut Parser::with_max_event_bytes(32), &chunks)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    assert_eq!(items[0], event("message", "a\n0123456789abcdefghij", ""));
}

#[test]
fn invalid_utf8_follows_the_whatwg_decoder_sequence_by_sequence() {
    // Overlong, surrogate and out-of-range forms: one U+FFFD per maximal subpart.
    let cases: [(&[u8], &str); 5] = [
        (b"\xC0\x80", "\u{FFFD}\u{FFFD}"),
        (b"\xED\xA0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF0\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF4\x90\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\xF0\x9F\x98", "\u{FFFD}"),
    ];
    for (bytes, want) in cases {
        let mut input = b"event: t".to_vec();
        input.extend_from_slice(bytes);
        input.extend_from_slice(b"\ndata: ");
        input.extend_from_slice(bytes);
        input.extend_from_slice(b"\n\n");
        check(1 << 20, &input, &[event(&format!("t{want}"), want, "")]);
    }
}

#[test]
fn a_long_line_fed_byte_by_byte_takes_linear_time() {
    // Rescanning the held line on every chunk would take minutes here, not milliseconds.
    let mut input = b"data:".to_vec();
    input.resize(512 << 10, b'x');
    input.extend_from_slice(b"\r\n\r");
    let started = std::time::Instant::now();
    let mut parser = Parser::new();
    let mut events = 0;
    for chunk in input.chunks(1) {
        parser.feed(chunk, &mut |i| {
            events += usize::from(matches!(i, Item::Event(_)))
        });
    }
    assert_eq!(events, 1);
    let elapsed = started.elapsed();
    assert!(elapsed.as_secs() < 5, "took {elapsed:?}");
}

#[test]
fn fields_read_in_place_read_the_same_at_every_split() {
    // Values whole in a chunk are read in place (and copied at the chunk's end); every split
    // into two and three chunks must read as the whole stream does, last event ID included.
    let input: &[u8] =
        b"id: 1\nevent: a\ndata: x\n\ndata: y\n\nid: \xC3\xA9\nevent: \xFF\ndata: \xE2\x80\xA6\n\n\
        id: 2\nid: 3\nevent: b\nevent: c\ndata: p\ndata: q\n\nid: a\0b\r\ndata: z\r\n\r\n\
        : c\nretry: 7\nid: 9\ndata: 0123456789abcdefghijklmnopqrstuvwxyz0123456789\n\ndata: w\n\n";
    let expect = [
        event("a", "x", "1"),
        event("message", "y", "1"),
        event("\u{FFFD}", "\u{2026}", "\u{E9}"),
        event("c", "p\nq", "3"),
        event("message", "z", "3"),
        Item::Comment,
        Item::Retry(7),
        Item::Oversized { bytes: 68 },
        event("message", "w", "9"),
    ];
    let read = |chunks: &[&[u8]]| {
        let mut parser = Parser::with_max_event_bytes(50);
        let items: Vec<Item> = run(&mut parser, chunks)
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        (items, parser.last_event_id().to_owned())
    };
    assert_eq!(read(&[input]), (expect.to_vec(), "9".to_owned()));
    for i in 0..=input.len() {
        let (a, rest) = input.split_at(i);
        assert_eq!(read(&[a, rest]).0, expect, "split at {i}");
        for j in i..=input.len() {
            let (b, c) = input[i..].split_at(j - i);
            let (items, last) = read(&[a, b, c]);
            assert_eq!(items, expect, "split at {i} and {j}");
            assert_eq!(last, "9", "split at {i} and {j}");
        }
    }
}

#[test]
fn the_last_event_id_read_in_place_outlives_its_chunk() {
    let mut parser = Parser::new();
    let mut items = Vec::new();
    parser.feed(b"id: 41\ndata: a\n\nid: 42", &mut |i| {
        items.push(i.to_owned())
    });
    assert_eq!(parser.last_event_id(), "41");
    parser.feed(b"\ndata: b\n\n", &mut |i| items.push(i.to_owned()));
    parser.feed(b"data: c\n\n", &mut |i| items.push(i.to_owned()));
    assert_eq!(parser.last_event_id(), "42");
    assert_eq!(
        items,
        [
            event("message", "a", "41"),
            event("message", "b", "42"),
            event("message", "c", "42")
        ]
    );
}
