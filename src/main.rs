fn main() -> bevy::app::AppExit {
    let args = qi::cli::parse();
    qi::build_app(args).run()
}
