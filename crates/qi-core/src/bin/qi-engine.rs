//! `qi-engine`: Qi's headless engine. See `qi-engine --help`.

fn main() {
    std::process::exit(qi_core::engine::main_with_args(
        std::env::args_os().collect(),
    ));
}
