use clap::Parser;

fn main() -> bevy::app::AppExit {
    let args = qi::cli::Args::parse();
    qi::build_app(args).run()
}
