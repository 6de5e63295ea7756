//! Legal-move generation through the C ABI against the Rust call, on the same 1,000 seeded
//! hands (17 and 20 cards, leading, classic rules): `rust` is `legal_moves_into` with a
//! reused list; `abi_packed` is `ddz_legal_moves_packed` into a caller's array of `DdzMove`;
//! `abi_text` is `ddz_legal_moves` from the hand's text into a caller's buffer. The ABI
//! functions are called here as a C program calls them (by their `extern "C"` entry points;
//! a C caller adds only the call through the shared library's symbol table).
#![allow(missing_docs, unsafe_code, clippy::undocumented_unsafe_blocks)]

use std::ffi::CString;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz_core::{Cards, Move, Rules, legal_moves_into};
use ddz_ffi::{DdzMove, ddz_legal_moves, ddz_legal_moves_packed, ddz_rules_free, ddz_rules_new};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// 1,000 hands dealt from seeded shuffles: half of 17 cards, half of 20.
fn hands() -> Vec<Cards> {
    let mut rng = ChaCha8Rng::seed_from_u64(2053);
    (0..1000)
        .map(|i| {
            let mut deck: Vec<usize> = (0..54).collect();
            for k in (1..deck.len()).rev() {
                deck.swap(k, rng.next_u32() as usize % (k + 1));
            }
            let size = if i % 2 == 0 { 17 } else { 20 };
            deck[..size].iter().fold(Cards::EMPTY, |hand, &card| {
                let rank = if card >= 52 { 13 + card - 52 } else { card / 4 };
                Cards::from_bits(hand.bits() + (1 << (4 * rank))).unwrap()
            })
        })
        .collect()
}

fn movegen(c: &mut Criterion) {
    let hands = hands();
    let texts: Vec<CString> = hands
        .iter()
        .map(|h| CString::new(h.to_string()).unwrap())
        .collect();
    let rules = Rules::classic();
    let handle = unsafe { ddz_rules_new(c"classic".as_ptr(), std::ptr::null()) };
    let mut group = c.benchmark_group("ffi_legal_moves_1000_hands");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("rust", |b| {
        let mut out: Vec<Move> = Vec::new();
        b.iter(|| {
            let mut total = 0;
            for &hand in &hands {
                legal_moves_into(hand, None, &rules, &mut out);
                total += out.len();
            }
            black_box(total)
        })
    });
    group.bench_function("abi_packed", |b| {
        let mut out = vec![DdzMove::default(); 16384];
        b.iter(|| {
            let mut total = 0;
            for hand in &hands {
                total += unsafe {
                    ddz_legal_moves_packed(
                        handle,
                        hand.bits(),
                        std::ptr::null(),
                        out.as_mut_ptr(),
                        out.len(),
                    )
                };
            }
            black_box(total)
        })
    });
    group.bench_function("abi_text", |b| {
        let mut buf = vec![0 as std::ffi::c_char; 1 << 20];
        b.iter(|| {
            let mut total = 0;
            for text in &texts {
                total += unsafe {
                    ddz_legal_moves(
                        handle,
                        text.as_ptr(),
                        std::ptr::null(),
                        buf.as_mut_ptr(),
                        buf.len(),
                    )
                };
            }
            black_box(total)
        })
    });
    group.finish();
    unsafe { ddz_rules_free(handle) };
}

criterion_group!(benches, movegen);
criterion_main!(benches);
