//! `qi-engine`: Qi's headless engine. See `qi-engine --help`.

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // a closed output (`qi-engine ffo | head -1`, a GUI that went away) ends the engine quietly,
    // as it ends other command-line tools, instead of a panic on the next line printed; not
    // in `match`, which writes to engines that may have died and reports them instead
    #[cfg(target_os = "linux")]
    if args.get(1).is_none_or(|a| a != "match") {
        // SAFETY: restoring the default action of one signal at the start of `main`, before
        // any other thread exists
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    std::process::exit(qi_core::engine::main_with_args(args));
}
