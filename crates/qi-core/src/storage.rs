//! Files on disk: the data folder, atomic writes, RON files that fall back to defaults, and
//! dates without a date crate.
//!
//! Every file Qi writes (saves, the autosave, settings, player history, exported records) goes
//! through [`atomic_write`]: the bytes go to a temporary file in the same folder, which is
//! flushed to disk (`fsync`) and then renamed over the target, so a crash or a full disk leaves
//! either the old file or the new one, never half of one. Each write has a temporary file of its
//! own (two threads writing one file never share one), a file that is a symbolic link is
//! written through to the file it points to (the link stays a link), and the file keeps its
//! permissions.
//!
//! The data folder is the platform's (`directories::ProjectDirs` for qualifier `""`, organisation
//! `Qi`, application `qi`): `~/.local/share/qi` on Linux (`$XDG_DATA_HOME/qi`),
//! `~/Library/Application Support/qi.Qi` on macOS, `%APPDATA%\Qi\qi\data` on Windows. The app's
//! `--save-dir DIR` replaces it ([`data_dir`]).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The settings file's name in the data folder.
pub const SETTINGS_FILE: &str = "settings.ron";
/// The player history's file name in the data folder.
pub const HISTORY_FILE: &str = "history.ron";
/// Files larger than this are refused as saves, settings, history or game records (a save is a
/// few KB): the same cap as [`crate::records::MAX_RECORD_BYTES`], so that every file Qi reads
/// has one limit.
pub const MAX_FILE_BYTES: u64 = crate::records::MAX_RECORD_BYTES as u64;

/// The platform's data folder for Qi, `None` when the platform has no home folder.
pub fn default_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "Qi", "qi").map(|d| d.data_dir().to_path_buf())
}

/// The data folder to use: `override_dir` (the app's `--save-dir`) if given, else the
/// platform's, else `qi-data` in the current folder. The folder is not created here; the
/// writers create it when they first write.
pub fn data_dir(override_dir: Option<&Path>) -> PathBuf {
    match override_dir {
        Some(d) => d.to_path_buf(),
        None => default_data_dir().unwrap_or_else(|| PathBuf::from("qi-data")),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file beside it (`.<name>.<pid>-<n>.tmp`, a
/// new name for every write), `fsync`, rename over `path`, then `fsync` of the folder (best
/// effort). The folder must exist. When `path` is a symbolic link the file it points to is
/// replaced and the link is kept; an existing file keeps its permissions. On any error the
/// temporary file is removed and `path` is left as it was.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = follow_links(path)?;
    let keep = fs::metadata(&target)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.permissions());
    let (tmp, mut f) = create_temp(&target)?;
    let result = (|| {
        f.write_all(bytes)?;
        if let Some(p) = keep {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    if let Some(dir) = target.parent() {
        // makes the rename itself durable where the platform allows opening a folder
        if let Ok(d) = fs::File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// The file a write to `path` must replace: `path` itself, or, when it is a symbolic link, the
/// file at the end of its links (which need not exist yet).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&p)?;
                p = if link.is_absolute() {
                    link
                } else {
                    p.parent().unwrap_or(Path::new("")).join(link)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "'{}' is a loop of symbolic links",
        path.display()
    )))
}

/// Writes started by this process, for unique temporary names.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// A temporary file for a write to `path`, beside it, created new (never an existing one).
fn create_temp(path: &Path) -> io::Result<(PathBuf, fs::File)> {
    let mut tries = 0;
    loop {
        let tmp = temp_path(path)?;
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A temporary file name for a write to `path`, in the same folder: `.<name>.<pid>-<n>.tmp`,
/// where `n` counts this process's writes, so that every call gives a new name.
pub fn temp_path(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{}' is not a file path", path.display()),
        )
    })?;
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}-{n}.tmp", std::process::id()));
    Ok(path.with_file_name(tmp_name))
}

/// `value` as pretty RON (no struct names, so a renamed type still reads its old files).
pub fn to_ron<T: Serialize>(value: &T) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new().struct_names(false);
    ron::ser::to_string_pretty(value, config).map_err(|e| format!("cannot be written as RON: {e}"))
}

/// Writes `value` as RON to `path` atomically ([`atomic_write`]), creating the folder if it is
/// missing. The error says which file and why.
pub fn save_ron<T: Serialize>(path: &Path, value: &T) -> Result<(), String> {
    let text = to_ron(value).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the folder {}: {e}", dir.display()))?;
    }
    atomic_write(path, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Why Qi could not write, create, move or delete a file, as the player can act on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskProblem {
    /// The system refuses access.
    Denied,
    /// No space is left.
    Full,
    /// The file system is read-only.
    ReadOnly,
    /// The folder it goes in is not there (removed, or a file of that name).
    NoFolder,
    /// Anything else (the system's words say it).
    Other,
}

/// What Qi was doing when a write failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskAction {
    /// Writing the file (atomically).
    Write,
    /// Creating the folder.
    CreateFolder,
    Delete,
    /// Moving an unreadable file aside (`….bad-<time>`) before writing a new one.
    SetAside,
    /// Making the file's text (nothing was written).
    Encode,
}

/// A failed write, typed for the window's language ([`DiskProblem`], [`DiskAction`]);
/// `Display` gives the English (what was done to which file, the system's words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskError {
    pub problem: DiskProblem,
    pub action: DiskAction,
    /// The file or folder (empty for [`DiskAction::Encode`]).
    pub path: String,
    /// The system's own words for the failure (or what went wrong making the text).
    pub system: String,
}

impl DiskError {
    /// `e`, met while doing `action` to `path`.
    pub fn of(e: &io::Error, action: DiskAction, path: &Path) -> DiskError {
        let problem = match e.kind() {
            io::ErrorKind::PermissionDenied => DiskProblem::Denied,
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => DiskProblem::Full,
            io::ErrorKind::ReadOnlyFilesystem => DiskProblem::ReadOnly,
            io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => DiskProblem::NoFolder,
            _ => DiskProblem::Other,
        };
        DiskError {
            problem,
            action,
            path: path.display().to_string(),
            system: e.to_string(),
        }
    }

    /// The file's text could not be made (`why` says it); nothing was written.
    pub fn other(why: impl Into<String>) -> DiskError {
        DiskError {
            problem: DiskProblem::Other,
            action: DiskAction::Encode,
            path: String::new(),
            system: why.into(),
        }
    }
}

impl std::fmt::Display for DiskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = &self.path;
        match self.action {
            DiskAction::Write => write!(f, "cannot write {path}")?,
            DiskAction::CreateFolder => write!(f, "cannot create the folder {path}")?,
            DiskAction::Delete => write!(f, "cannot delete {path}")?,
            DiskAction::SetAside => write!(f, "cannot set the unreadable {path} aside")?,
            DiskAction::Encode => write!(f, "cannot make the file's text")?,
        }
        write!(f, ": {}", self.system)
    }
}

impl std::error::Error for DiskError {}

/// Why a file cannot be read as text ([`read_text`]). Typed, so that the window can say it in
/// the player's language; `Display` gives the English ("the file …" reads on from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The system refuses access.
    Denied,
    /// Another failure of the system, in its own words.
    Io(String),
    /// A folder, not a file.
    Folder,
    /// A device, a pipe or the like, not a regular file.
    NotAFile,
    /// Larger than [`MAX_FILE_BYTES`].
    TooBig { bytes: u64 },
    /// Not UTF-8 text: the first bad byte's offset.
    NotUtf8 { at: usize },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Denied => f.write_str("cannot be read: permission denied"),
            ReadError::Io(e) => write!(f, "cannot be read: {e}"),
            ReadError::Folder => f.write_str("is a folder, not a file"),
            ReadError::NotAFile => f.write_str("is not a regular file"),
            ReadError::TooBig { bytes } => write!(
                f,
                "is {bytes} bytes, more than the {MAX_FILE_BYTES} a Qi file can have"
            ),
            ReadError::NotUtf8 { at } => write!(f, "is not UTF-8 text (byte {at})"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> ReadError {
        if e.kind() == io::ErrorKind::PermissionDenied {
            ReadError::Denied
        } else {
            ReadError::Io(e.to_string())
        }
    }
}

/// Reads a file of at most [`MAX_FILE_BYTES`] as UTF-8 text. `Ok(None)` when it does not exist.
/// Only regular files are read (a folder, a device such as `/dev/zero` or a pipe is refused),
/// and never more than the cap, even from a file that grows while it is read.
pub fn read_text(path: &Path) -> Result<Option<String>, ReadError> {
    use std::io::Read;
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if meta.is_dir() {
        return Err(ReadError::Folder);
    }
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooBig { bytes: meta.len() });
    }
    let file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooBig {
            bytes: bytes.len() as u64,
        });
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| ReadError::NotUtf8 {
            at: e.utf8_error().valid_up_to(),
        })
}

/// Reads RON text as a `T`, with the line and column of the first error. A UTF-8 byte-order
/// mark (which some editors write) is skipped.
pub fn from_ron<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ron::de::from_str(text).map_err(|e| format!("is not valid: {e}"))
}

/// Why a RON file ([`load_or_default`]) gave way to the defaults. Typed, so that the window
/// says it in the player's language; `Display` gives the English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadProblem {
    /// The file's name.
    pub name: String,
    pub why: LoadFailure,
    /// The name the bad file was kept under beside it, or why it could not be set aside.
    pub kept: Result<String, String>,
}

/// What was wrong with a RON file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadFailure {
    /// It cannot be read as text.
    File(ReadError),
    /// It is not valid RON of its type: the parser's position and words.
    Invalid(String),
}

impl std::fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.name;
        match &self.why {
            LoadFailure::File(e) => write!(f, "{name} {e}")?,
            LoadFailure::Invalid(e) => write!(f, "{name} is not valid: {e}")?,
        }
        match &self.kept {
            Ok(kept) => write!(
                f,
                "; the defaults are used and the old file was kept as {kept}"
            ),
            Err(e) => write!(
                f,
                "; the defaults are used (the old file could not be set aside: {e})"
            ),
        }
    }
}

/// Reads a RON file of `T` (settings, history). A missing file gives the defaults and no
/// message. A file that cannot be read or parsed gives the defaults and the problem for the
/// player, and the bad file is kept beside the original as `<name>.bad-<unix seconds>` (so the
/// next save does not destroy it). Never panics.
///
/// Give the type `#[serde(default)]` so that a file written before a field was added still
/// reads (with that field's default) instead of being set aside.
pub fn load_or_default<T: DeserializeOwned + Default>(path: &Path) -> (T, Option<LoadProblem>) {
    let why = match read_text(path) {
        Ok(None) => return (T::default(), None),
        Ok(Some(text)) => {
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            match ron::de::from_str::<T>(text) {
                Ok(v) => return (v, None),
                Err(e) => LoadFailure::Invalid(e.to_string()),
            }
        }
        Err(e) => LoadFailure::File(e),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let kept = keep_bad_file(path)
        .map(|kept| {
            kept.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .map_err(|e| e.to_string());
    (T::default(), Some(LoadProblem { name, why, kept }))
}

/// Renames `path` to `<name>.bad-<unix seconds>` (with `-2`, `-3`, … if that is taken) and
/// returns the new path.
pub fn keep_bad_file(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?
        .to_string_lossy()
        .into_owned();
    let stamp = now_unix();
    let mut n = 1;
    loop {
        let candidate = if n == 1 {
            path.with_file_name(format!("{name}.bad-{stamp}"))
        } else {
            path.with_file_name(format!("{name}.bad-{stamp}-{n}"))
        };
        if !candidate.exists() {
            fs::rename(path, &candidate)?;
            return Ok(candidate);
        }
        n += 1;
    }
}

/// Seconds since 1970-01-01 UTC (0 if the clock is before that).
pub fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The civil date (year, month 1-12, day 1-31) of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    // Howard Hinnant's algorithm
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `2024-05-06 13:04 UTC` for a time in seconds since the epoch.
pub fn format_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

/// `2024-05-06` (the date alone, as SGF `DT` and PGN `Date` want it, PGN with dots).
pub fn format_date(secs: u64) -> String {
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_errors_say_what_the_player_can_act_on() {
        let slot = Path::new("/x/slot-1.ron");
        let of = |k| DiskError::of(&io::Error::from(k), DiskAction::Write, slot).problem;
        assert_eq!(of(io::ErrorKind::PermissionDenied), DiskProblem::Denied);
        assert_eq!(of(io::ErrorKind::StorageFull), DiskProblem::Full);
        assert_eq!(of(io::ErrorKind::ReadOnlyFilesystem), DiskProblem::ReadOnly);
        assert_eq!(of(io::ErrorKind::NotFound), DiskProblem::NoFolder);
        assert_eq!(of(io::ErrorKind::Interrupted), DiskProblem::Other);
        let e = DiskError::of(
            &io::Error::from(io::ErrorKind::StorageFull),
            DiskAction::Write,
            Path::new("f"),
        );
        assert!(e.to_string().starts_with("cannot write f: "), "{e}");
        // a real failure: a folder where a file of that name already is
        let dir = std::env::temp_dir().join(format!("qi-disk-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("saves");
        fs::write(&file, "x").unwrap();
        let e = fs::create_dir_all(file.join("records")).unwrap_err();
        let e = DiskError::of(&e, DiskAction::CreateFolder, &file.join("records"));
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(e.problem, DiskProblem::NoFolder, "{e}");
        assert_eq!(e.path, file.join("records").display().to_string());
    }

    #[test]
    fn dates() {
        assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
        // 2000-02-29 12:34:56
        assert_eq!(format_utc(951_827_696), "2000-02-29 12:34 UTC");
        assert_eq!(format_date(1_700_000_000), "2023-11-14");
    }

    #[test]
    fn temp_file_is_beside_the_target_and_new_each_time() {
        let t = temp_path(Path::new("/a/b/slot-1.ron")).unwrap();
        assert_eq!(t.parent(), Some(Path::new("/a/b")));
        assert!(
            t.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".slot-1.ron.")
        );
        let u = temp_path(Path::new("/a/b/slot-1.ron")).unwrap();
        assert_ne!(t, u, "every write has its own temporary file");
    }
}
