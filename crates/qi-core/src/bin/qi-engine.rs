//! `qi-engine`: Qi's headless engine. See `qi-engine --help`.

fn main() {
    // a closed output (`qi-engine ffo | head -1`, a GUI that went away) ends the engine quietly,
    // as it ends other command-line tools, instead of a panic on the next line printed
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default action of one signal at the start of `main`, before any
    // other thread exists
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(qi_core::engine::main_with_args(
        std::env::args_os().collect(),
    ));
}
