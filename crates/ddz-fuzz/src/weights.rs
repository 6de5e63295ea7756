//! Network weight files (`net:weights=FILE`, `search:weights=FILE`, `--net`): safetensors.

use ddz_bots::net::Net;

/// Reads `data` as a network weight file. A network that loads must write as a file that
/// loads as the same network.
pub fn weights(data: &[u8]) {
    let Ok(net) = Net::from_bytes(data, "fuzz.safetensors") else {
        return;
    };
    let bytes = net.mlp().to_safetensors();
    match Net::from_bytes(&bytes, "written.safetensors") {
        Ok(again) => assert_eq!(again, net, "a network reads back as itself"),
        Err(e) => panic!("a network written does not read back: {e}"),
    }
    let _ = net.mlp().forward_dense(&vec![0.0; net.mlp().inputs()]);
}
