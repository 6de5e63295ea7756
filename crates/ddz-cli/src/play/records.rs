//! Where `ddz play` keeps its records, and how a finished game's record is saved.

use std::path::{Path, PathBuf};

/// The default records folder: `ddz/records` under the user's data directory
/// (`$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support` on macOS,
/// `%APPDATA%` on Windows).
pub fn default_records_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("ddz").join("records"))
}

/// Saves a finished game's record `text` in `dir` as `play-<unix seconds>-seed<seed>-game<n>.json`
/// (with `-2`, `-3`... when that name is taken) and returns its path.
pub fn save_record_text(dir: &Path, seed: u64, number: u32, text: &str) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the records folder {}: {e}", dir.display()))?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let stem = format!("play-{secs}-seed{seed}-game{number}");
    let mut path = dir.join(format!("{stem}.json"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stem}-{n}.json"));
        n += 1;
    }
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}
