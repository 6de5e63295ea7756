//! include/ddz.h is what cbindgen makes of the sources today (`DDZ_BLESS=1` rewrites it).

#[test]
fn the_header_is_up_to_date() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")).unwrap();
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_src(format!("{dir}/src/lib.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen reads the sources")
        .write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let path = format!("{dir}/include/ddz.h");
    if std::env::var_os("DDZ_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "crates/ddz-ffi/include/ddz.h is out of date: DDZ_BLESS=1 cargo test -p ddz-ffi --test header"
    );
}
