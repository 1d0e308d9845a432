//! Real-window test harness: an Xvfb server of our own, `qi` started on it (Vulkan on Mesa
//! lavapipe), xdotool for keys and clicks, and the log for what happened.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Window tests run one at a time: two software-rendered windows on two cores would starve
/// each other.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub struct Xvfb {
    child: Child,
    pub display: String,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Xvfb {
    pub fn start() -> Xvfb {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let which = Command::new("sh")
            .arg("-c")
            .arg("command -v Xvfb")
            .output()
            .expect("sh");
        assert!(
            which.status.success(),
            "Xvfb is not installed: run scripts/test.sh, which installs it"
        );
        // Xvfb picks a free display itself and writes its number on stdout when it is ready
        // (`-displayfd`): it also takes over the lock files that killed servers left behind,
        // which had piled up to 299 on the CI machine and made every display we tried look
        // taken ("could not start Xvfb")
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let mut out = child.stdout.take().expect("Xvfb's stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let mut byte = [0u8; 1];
            while let Ok(1) = out.read(&mut byte) {
                if byte[0] == b'\n' {
                    break;
                }
                text.push(byte[0] as char);
            }
            let _ = tx.send(text);
        });
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(num) if num.trim().parse::<u32>().is_ok() => Xvfb {
                child,
                display: format!(":{}", num.trim()),
                _turn: turn,
            },
            other => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("could not start Xvfb: {other:?}");
            }
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Qi {
    pub child: Child,
    pub log: PathBuf,
    pub display: String,
}

pub fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("window-tests");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An empty folder of this name under the tests' output folder (whatever a last run left there
/// is removed first).
pub fn fresh_dir(name: &str) -> PathBuf {
    let d = out_dir().join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

impl Qi {
    pub fn start(x: &Xvfb, name: &str, args: &[&str]) -> Qi {
        // Each run saves into a fresh folder of its own, never the player's data folder.
        let saves = out_dir().join(format!("{name}-saves"));
        let _ = std::fs::remove_dir_all(&saves);
        Qi::start_with_saves(x, name, args, &saves)
    }

    /// Starts qi saving into `saves`, which is kept as it is (a second run sees the first
    /// run's saves).
    pub fn start_with_saves(x: &Xvfb, name: &str, args: &[&str], saves: &Path) -> Qi {
        let log = out_dir().join(format!("{name}.log"));
        let file = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_qi"))
            .args(args)
            .arg("--save-dir")
            .arg(saves)
            .env("DISPLAY", &x.display)
            .env_remove("WAYLAND_DISPLAY")
            // English unless the test asks for a language with --lang
            .env("LANG", "C.UTF-8")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env("RUST_LOG", "info,wgpu=error,naga=warn")
            .env("NO_COLOR", "1")
            .stdout(file.try_clone().unwrap())
            .stderr(file)
            .spawn()
            .expect("start qi");
        Qi {
            child,
            log,
            display: x.display.clone(),
        }
    }

    pub fn log_text(&self) -> String {
        let mut s = String::new();
        if let Ok(mut f) = std::fs::File::open(&self.log) {
            let _ = f.read_to_string(&mut s);
        }
        s
    }

    /// Waits until the log has a line containing `needle`; panics with the log otherwise.
    pub fn wait_for_log(&mut self, needle: &str, timeout: Duration) -> String {
        let t0 = Instant::now();
        loop {
            let text = self.log_text();
            if let Some(line) = text.lines().find(|l| l.contains(needle)) {
                return line.to_string();
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("qi exited ({status}) before '{needle}':\n{text}");
            }
            if t0.elapsed() > timeout {
                panic!("no '{needle}' in the log after {timeout:?}:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let t0 = Instant::now();
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return s;
            }
            if t0.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("qi did not exit within {timeout:?}:\n{}", self.log_text());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Runs xdotool on this display.
    pub fn xdotool(&self, args: &[&str]) {
        let st = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .status()
            .expect("xdotool");
        assert!(st.success(), "xdotool {args:?}");
    }

    /// Presses keys one after another (xdotool key names), with a pause so each frame sees one.
    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.xdotool(&["search", "--sync", "--name", "^Qi", "windowfocus", "--sync"]);
            self.xdotool(&["key", "--delay", "120", k]);
            std::thread::sleep(Duration::from_millis(350));
        }
    }

    /// Clicks at a point given in window coordinates.
    pub fn click(&self, x: i32, y: i32) {
        self.xdotool(&["search", "--sync", "--name", "^Qi", "windowfocus", "--sync"]);
        let id = Command::new("xdotool")
            .args(["search", "--name", "^Qi"])
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool");
        let id = String::from_utf8_lossy(&id.stdout)
            .lines()
            .next()
            .expect("the Qi window")
            .to_string();
        self.xdotool(&["mousemove", "--window", &id, &x.to_string(), &y.to_string()]);
        std::thread::sleep(Duration::from_millis(250));
        self.xdotool(&["mousedown", "1"]);
        std::thread::sleep(Duration::from_millis(120));
        self.xdotool(&["mouseup", "1"]);
        std::thread::sleep(Duration::from_millis(400));
    }

    /// Clicks the centre of a board square (the layout the app computes for a w×h board in
    /// the window's first size).
    pub fn click_square(&self, kind: qi_core::GameKind, size: (u8, u8), sq: qi_core::Square) {
        self.click_square_in(qi::board::WINDOW, kind, size, sq);
    }

    /// Clicks the centre of a board square in a window of this size.
    pub fn click_square_in(
        &self,
        window: bevy::math::Vec2,
        kind: qi_core::GameKind,
        size: (u8, u8),
        sq: qi_core::Square,
    ) {
        let (x, y) = square_pixel(window, kind, size, sq);
        self.click(x as i32, y as i32);
    }

    /// How many log lines contain `needle`.
    pub fn log_count(&self, needle: &str) -> usize {
        self.log_text()
            .lines()
            .filter(|l| l.contains(needle))
            .count()
    }

    /// Waits until `needle` has been logged more than `before` times.
    pub fn wait_for_more(&mut self, needle: &str, before: usize, timeout: Duration) {
        let t0 = Instant::now();
        while self.log_count(needle) <= before {
            assert!(
                t0.elapsed() < timeout,
                "no new '{needle}' after {timeout:?}:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Gives the window a new size and waits until the board has been drawn again for it.
    pub fn resize(&mut self, w: u32, h: u32) {
        let before = self.log_count("qi: board at rest");
        self.xdotool(&[
            "search",
            "--sync",
            "--name",
            "^Qi",
            "windowsize",
            "--sync",
            &w.to_string(),
            &h.to_string(),
        ]);
        self.wait_for_more("qi: board at rest", before, Duration::from_secs(30));
    }

    /// Presses F12 and waits for the PNG it writes into `dir`; returns its path.
    pub fn screenshot(&mut self, dir: &Path) -> PathBuf {
        let before: std::collections::HashSet<PathBuf> = pngs(dir).into_iter().collect();
        self.keys(&["F12"]);
        let t0 = Instant::now();
        loop {
            if let Some(p) = pngs(dir).into_iter().find(|p| !before.contains(p)) {
                // the file is complete once it decodes
                if image::open(&p).is_ok() {
                    return p;
                }
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "no screenshot in {}:\n{}",
                dir.display(),
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn pngs(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "png"))
                .collect()
        })
        .unwrap_or_default()
}

/// Where a square's centre is in the window's pixels (origin top left).
pub fn square_pixel(
    window: bevy::math::Vec2,
    kind: qi_core::GameKind,
    size: (u8, u8),
    sq: qi_core::Square,
) -> (f32, f32) {
    let layout = qi::board::BoardLayout::for_game(qi::games::ui_of(kind), size, window);
    let p = layout.center_of(sq);
    (
        (window.x / 2.0 + p.x).round(),
        (window.y / 2.0 - p.y).round(),
    )
}

/// The colour of one pixel of a PNG.
pub fn pixel(path: &Path, x: u32, y: u32) -> [u8; 3] {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgb8();
    img.get_pixel(x, y).0
}

/// Whether two colours are within `tol` in every channel.
pub fn near(a: [u8; 3], b: [u8; 3], tol: u8) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= tol)
}

/// How many pixels have exactly this colour.
pub fn count_color(path: &Path, c: [u8; 3]) -> usize {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgb8();
    img.pixels().filter(|p| p.0 == c).count()
}

impl Drop for Qi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads a PNG and returns (width, height, number of distinct colours in a sample).
pub fn png_summary(path: &Path) -> (u32, u32, usize) {
    let img = image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgb8();
    let mut colors = std::collections::HashSet::new();
    for (i, p) in img.pixels().enumerate() {
        if i % 7 == 0 {
            colors.insert(p.0);
        }
    }
    (img.width(), img.height(), colors.len())
}
