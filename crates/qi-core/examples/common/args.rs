//! Command-line helpers shared by the training and calibration examples (included with
//! `#[path]`; not an example of its own).

/// The value after the option `name`, parsed, or `default` without the option; a value that
/// does not parse, or a missing one, stops the program with a message (exit code 2) rather
/// than running with the default.
#[allow(dead_code)]
pub fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    let Some(i) = args.iter().position(|a| a == name) else {
        return default;
    };
    match args.get(i + 1) {
        Some(v) => v.parse().unwrap_or_else(|_| {
            eprintln!("{name}: '{v}' is not a valid value");
            std::process::exit(2)
        }),
        None => {
            eprintln!("{name} needs a value");
            std::process::exit(2)
        }
    }
}

/// The arguments that are neither options (`--name`) nor their values.
#[allow(dead_code)]
pub fn positional(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i].starts_with("--") {
            i += 2;
        } else {
            out.push(args[i].clone());
            i += 1;
        }
    }
    out
}
