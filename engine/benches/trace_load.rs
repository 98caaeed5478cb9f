//! Trace load throughput (MB/s of file read and parsed into records) for the text, gzip-text and
//! compact binary forms of one generated trace of about a million records: 64 processors changing
//! state, sending labelled messages to each other, and updating a queue-length parameter. Also the
//! write cost per record of the text and binary writers (records/s).

#![allow(
    clippy::expect_used,
    reason = "a benchmark has nothing to do but stop when its own fixture is broken"
)]

use std::hint::black_box;
use std::io::Cursor;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flate2::read::MultiGzDecoder;
use hase_engine::SimTime;
use hase_engine::trace::{
    BinaryTraceReader, BinaryTraceWriter, EntityInfo, LinkInfo, Record, TextTraceReader, TextTraceWriter,
    TraceHeader, TraceRead, TraceSink, TraceValue,
};

const ENTITIES: u32 = 64;
const RECORDS: u64 = 1_000_000;

fn header() -> TraceHeader {
    TraceHeader {
        version: 1,
        project: "trace load benchmark".into(),
        seed: 1,
        level: 1,
        entities: (0..ENTITIES)
            .map(|i| EntityInfo {
                path: format!("cluster/node{i}"),
                type_name: "Processor".into(),
                states: ["IDLE", "COMPUTE", "SEND", "RECV", "WAIT"].map(String::from).to_vec().into(),
                params: vec!["queue_length".into()].into(),
                ports: vec!["net".into()].into(),
                group: None,
            })
            .collect(),
        links: (0..ENTITIES).map(|i| LinkInfo { a: (i, 0), b: ((i + 1) % ENTITIES, 0) }).collect(),
        groups: Vec::new(),
    }
}

/// A deterministic mix: 50 % state changes, 40 % sends, 10 % parameter updates.
fn records() -> Vec<Record> {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut now = 0_u64;
    (0..RECORDS)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            now += x % 2_000;
            let time = SimTime(now);
            let entity = (x >> 20) as u32 % ENTITIES;
            match i % 10 {
                0..=4 => Record::State { time, entity, state: (x >> 40) as u16 % 5 },
                5..=8 => {
                    let to = (entity + 1 + (x >> 33) as u32 % (ENTITIES - 1)) % ENTITIES;
                    Record::Send {
                        time,
                        from: entity,
                        from_port: 0,
                        to,
                        to_port: 0,
                        depart: SimTime(now + x % 3_000),
                        arrive: SimTime(now + 50_000 + x % 100_000),
                        bytes: 1 << (x % 16),
                        label: format!("data r{entity}→r{to} {}/8", i % 8).into(),
                    }
                }
                _ => Record::Param { time, entity, param: 0, value: TraceValue::Int((x % 32) as i64) },
            }
        })
        .collect()
}

fn write(sink: &mut dyn TraceSink, header: &TraceHeader, records: &[Record]) {
    sink.header(header).expect("header");
    for r in records {
        sink.record(r).expect("record");
    }
    sink.finish().expect("finish");
}

fn count(mut reader: impl TraceRead) -> u64 {
    let mut n = 0;
    while let Some(r) = reader.next_record().expect("valid trace") {
        black_box(&r);
        n += 1;
    }
    n
}

fn trace_load(c: &mut Criterion) {
    let header = header();
    let records = records();
    let mut text = TextTraceWriter::new(Vec::new());
    write(&mut text, &header, &records);
    let text = text.into_inner().expect("text");
    let mut gz = TextTraceWriter::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
    write(&mut gz, &header, &records);
    let gz = gz.into_inner().expect("gz").finish().expect("gz");
    let mut binary = BinaryTraceWriter::new(Vec::new());
    write(&mut binary, &header, &records);
    let binary = binary.into_inner().expect("binary");
    eprintln!(
        "trace of {RECORDS} records: text {} bytes, gzip text {} bytes, binary {} bytes",
        text.len(),
        gz.len(),
        binary.len()
    );

    let mut group = c.benchmark_group("trace_load");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("text", |b| {
        b.iter(|| count(TextTraceReader::new(Cursor::new(&text), "bench").expect("header")));
    });
    group.throughput(Throughput::Bytes(gz.len() as u64));
    group.bench_function("gzip_text", |b| {
        b.iter(|| {
            let input = std::io::BufReader::with_capacity(1 << 16, MultiGzDecoder::new(&gz[..]));
            count(TextTraceReader::new(input, "bench").expect("header"))
        });
    });
    group.throughput(Throughput::Bytes(binary.len() as u64));
    group.bench_function("binary", |b| {
        b.iter(|| count(BinaryTraceReader::new(Cursor::new(&binary), "bench").expect("header")));
    });
    group.finish();

    // Writing is what a traced run pays per record: measured into a sink that discards bytes.
    let mut group = c.benchmark_group("trace_write");
    group.sample_size(10);
    group.throughput(Throughput::Elements(records.len() as u64));
    group.bench_function("text", |b| {
        b.iter(|| write(&mut TextTraceWriter::new(std::io::sink()), &header, &records));
    });
    group.bench_function("binary", |b| {
        b.iter(|| write(&mut BinaryTraceWriter::new(std::io::sink()), &header, &records));
    });
    group.finish();
}

criterion_group!(benches, trace_load);
criterion_main!(benches);
