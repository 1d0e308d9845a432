//! Command-line helpers shared by the training and calibration examples (included with
//! `#[path]`; not an example of its own).

/// The value after the option `name`, parsed, or `default`.
#[allow(dead_code)]
pub fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
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
