#[cfg(target_arch = "wasm32")]
fn main() {
    agora::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(agora::cli::main(std::env::args().skip(1).collect()));
}
