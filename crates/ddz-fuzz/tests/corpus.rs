//! Every file of `fuzz/corpus/TARGET/` and `fuzz/regressions/TARGET/` fed to its target's
//! function: the seed corpus and every crash the fuzzers found stay checked in plain
//! `cargo test`, without cargo-fuzz or a nightly toolchain.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository's `fuzz/` directory.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `dir` (none when it is missing), sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target` on every file of `dir`; how many there were.
fn run_all(name: &str, target: fn(&[u8]), dir: &Path) -> usize {
    let files = files(dir);
    for path in &files {
        let data = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("{name}: {}", path.display());
        target(&data);
    }
    files.len()
}

#[test]
fn every_seed_of_the_corpus_passes_its_target() {
    for (name, target) in ddz_fuzz::TARGETS {
        let seeds = run_all(name, target, &fuzz_dir().join("corpus").join(name));
        assert!(seeds > 0, "fuzz/corpus/{name}/ holds no seed");
    }
}

#[test]
fn every_regression_passes_its_target() {
    for (name, target) in ddz_fuzz::TARGETS {
        run_all(name, target, &fuzz_dir().join("regressions").join(name));
    }
}

#[test]
fn every_directory_and_fuzz_target_is_a_target() {
    let names: Vec<&str> = ddz_fuzz::TARGETS.iter().map(|(name, _)| *name).collect();
    for top in ["corpus", "regressions"] {
        for entry in fs::read_dir(fuzz_dir().join(top)).expect("the fuzz directory") {
            let entry = entry.expect("a directory entry");
            if !entry.path().is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(
                names.contains(&name.as_str()),
                "fuzz/{top}/{name} is no target"
            );
        }
    }
    for name in &names {
        let source = fuzz_dir().join("fuzz_targets").join(format!("{name}.rs"));
        assert!(source.is_file(), "{} is missing", source.display());
    }
}

#[test]
fn the_weights_seed_is_a_network_of_this_build() {
    // The target checks a network that loads: the corpus must hold one.
    let path = fuzz_dir().join("corpus/weights/tiny-680-2-1");
    let bytes = fs::read(&path).expect("the weights seed");
    let net = ddz_bots::net::Net::from_bytes(&bytes, "tiny-680-2-1");
    assert!(net.is_ok(), "{:?}", net.err());
}
