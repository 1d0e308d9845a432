//! Every text the player sees, in the player's language. The texts live in Fluent files, one
//! folder per language: `assets/locales/<lang>/qi.ftl` (read with the `fluent-bundle` crate, the
//! reference implementation of Project Fluent, which also handles plural forms and numbers).
//! They are built into the program, so it needs no files beside it to speak.
//!
//! Code asks for a text by key with [`t!`](crate::t): `t!("menu-new-game")`, or with arguments,
//! `t!("hud-move-time", n = ply, time = clock)`. The language is the program's one current language: chosen in
//! Settings, `qi --lang`, or on the first start from the system locale (`LC_ALL`,
//! `LC_MESSAGES`, `LANG`).

use std::borrow::Cow;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

/// A language the window speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    EnUs,
    ZhCn,
}

/// Kept in the settings file as its tag, `"zh-CN"`.
impl serde::Serialize for Lang {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// A tag we do not know (a file edited by hand, a newer version's language) reads as the
/// system's language rather than making the whole settings file unreadable.
impl<'de> serde::Deserialize<'de> for Lang {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
        let tag = String::deserialize(d)?;
        Ok(Lang::from_tag(&tag).unwrap_or_else(Lang::from_env))
    }
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::EnUs, Lang::ZhCn];

    /// The BCP 47 tag, also the folder name under `assets/locales`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::EnUs => "en-US",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language's name in itself, as the language chooser shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::EnUs => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    fn source(self) -> &'static str {
        match self {
            Lang::EnUs => include_str!("../assets/locales/en-US/qi.ftl"),
            Lang::ZhCn => include_str!("../assets/locales/zh-CN/qi.ftl"),
        }
    }

    /// A language tag or a POSIX locale (`zh-CN`, `zh_CN.UTF-8`, `zh_Hans`, `en_GB`, `C`);
    /// `None` when it is none of ours.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let base = tag.split(['.', '@']).next().unwrap_or("").trim();
        let mut parts = base.split(['-', '_']);
        let language = parts.next()?.to_ascii_lowercase();
        let rest: Vec<String> = parts.map(|p| p.to_ascii_lowercase()).collect();
        match language.as_str() {
            "en" => Some(Lang::EnUs),
            // Simplified Chinese; the traditional script and its regions are not translated
            "zh" if !rest
                .iter()
                .any(|p| matches!(p.as_str(), "hant" | "tw" | "hk" | "mo")) =>
            {
                Some(Lang::ZhCn)
            }
            _ => None,
        }
    }

    /// The system's language from the environment, as POSIX reads it (`LC_ALL` first, then
    /// `LC_MESSAGES`, then `LANG`); English when it is unset or one we do not have.
    pub fn from_env() -> Lang {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(&var)
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::from_tag(&v))
            .unwrap_or(Lang::EnUs)
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::from_tag(s).ok_or_else(|| {
            format!(
                "unknown language '{s}' (known: {})",
                Lang::ALL.map(Lang::code).join(", ")
            )
        })
    }
}

static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Makes `lang` the language of every text from now on.
pub fn set_lang(lang: Lang) {
    CURRENT.store(
        Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0) as u8,
        Ordering::Relaxed,
    );
}

/// The current language.
pub fn lang() -> Lang {
    Lang::ALL
        .get(CURRENT.load(Ordering::Relaxed) as usize)
        .copied()
        .unwrap_or_default()
}

fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: OnceLock<Vec<FluentBundle<FluentResource>>> = OnceLock::new();
    let all = BUNDLES.get_or_init(|| Lang::ALL.iter().map(|&l| make_bundle(l)).collect());
    &all[Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0)]
}

fn make_bundle(lang: Lang) -> FluentBundle<FluentResource> {
    let id: unic_langid::LanguageIdentifier =
        lang.code().parse().expect("our language codes are valid");
    let mut b = FluentBundle::new_concurrent(vec![id]);
    // No Unicode isolation marks around arguments: egui would draw them as boxes.
    b.set_use_isolating(false);
    let res = match FluentResource::try_new(lang.source().to_string()) {
        Ok(r) => r,
        Err((r, errors)) => {
            // the tests keep the files clean; a broken entry still leaves the others usable
            bevy::log::error!("qi: {} translation file: {errors:?}", lang.code());
            r
        }
    };
    if let Err(errors) = b.add_resource(res) {
        bevy::log::error!("qi: {} translation file: {errors:?}", lang.code());
    }
    b
}

/// The text of `key` in the current language.
pub fn tr(key: &str) -> String {
    tr_in(lang(), key, None)
}

/// The text of `key` with arguments, in the current language.
pub fn tr_args(key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let mut fa = FluentArgs::new();
    for (name, value) in args {
        fa.set(*name, value.clone());
    }
    tr_in(lang(), key, Some(&fa))
}

/// The text of `key` in `lang`. A key with no text (a bug the tests look for) shows as the key
/// itself, so the screen still says something.
pub fn tr_in(lang: Lang, key: &str, args: Option<&FluentArgs>) -> String {
    let b = bundle(lang);
    let Some(pattern) = b.get_message(key).and_then(|m| m.value()) else {
        if lang != Lang::EnUs {
            return tr_in(Lang::EnUs, key, args);
        }
        bevy::log::warn!("qi: no text for '{key}'");
        return key.to_string();
    };
    let mut errors = Vec::new();
    let text: Cow<str> = b.format_pattern(pattern, args, &mut errors);
    if !errors.is_empty() {
        bevy::log::warn!("qi: text '{key}': {errors:?}");
    }
    text.into_owned()
}

/// A language's whole translation file (for the glyph check).
pub fn all_texts(lang: Lang) -> &'static str {
    lang.source()
}

/// Every key of a language's file.
pub fn keys(lang: Lang) -> Vec<String> {
    let res = match FluentResource::try_new(lang.source().to_string()) {
        Ok(r) | Err((r, _)) => r,
    };
    res.entries()
        .filter_map(|e| match e {
            fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
            _ => None,
        })
        .collect()
}

/// A translated text: `t!("key")`, or `t!("key", name = value, …)` where each value is a
/// string or a number (Fluent picks plural forms from numbers).
#[macro_export]
macro_rules! t {
    ($key:literal) => {
        $crate::i18n::tr($key)
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::tr_args(
            $key,
            &[$((stringify!($name), $crate::i18n::FluentValue::from($value))),+],
        )
    };
}

pub use fluent_bundle::FluentValue;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_from_the_environment() {
        assert_eq!(Lang::from_tag("zh_CN.UTF-8"), Some(Lang::ZhCn));
        assert_eq!(Lang::from_tag("zh-Hans-CN"), Some(Lang::ZhCn));
        assert_eq!(Lang::from_tag("zh_TW.UTF-8"), None);
        assert_eq!(Lang::from_tag("en_GB"), Some(Lang::EnUs));
        assert_eq!(Lang::from_tag("C"), None);
        assert_eq!(Lang::from_tag(""), None);
        let env = |vars: &'static [(&'static str, &'static str)]| {
            Lang::from_vars(move |n| {
                vars.iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert_eq!(env(&[("LANG", "zh_CN.UTF-8")]), Lang::ZhCn);
        assert_eq!(env(&[("LC_ALL", "C"), ("LANG", "zh_CN.UTF-8")]), Lang::EnUs);
        assert_eq!(env(&[("LC_ALL", ""), ("LANG", "zh_CN.UTF-8")]), Lang::ZhCn);
        assert_eq!(env(&[]), Lang::EnUs);
        assert_eq!("zh-CN".parse::<Lang>(), Ok(Lang::ZhCn));
        assert!("fr".parse::<Lang>().is_err());
    }

    /// Both files have the same keys, each key is used by the code, and each key the code uses
    /// has a text in both languages.
    #[test]
    fn every_key_in_both_languages_and_in_use() {
        let en: std::collections::BTreeSet<String> = keys(Lang::EnUs).into_iter().collect();
        let zh: std::collections::BTreeSet<String> = keys(Lang::ZhCn).into_iter().collect();
        let only_en: Vec<_> = en.difference(&zh).collect();
        let only_zh: Vec<_> = zh.difference(&en).collect();
        assert!(only_en.is_empty(), "missing in zh-CN: {only_en:?}");
        assert!(only_zh.is_empty(), "missing in en-US: {only_zh:?}");
        let used = keys_used_in_source();
        assert!(used.len() > 100, "found only {} keys in src/", used.len());
        let unused: Vec<_> = en.difference(&used).collect();
        assert!(unused.is_empty(), "keys no code uses: {unused:?}");
        let missing: Vec<_> = used.difference(&en).collect();
        assert!(missing.is_empty(), "keys used with no text: {missing:?}");
    }

    /// The keys in `t!("…"` calls under `src/`.
    fn keys_used_in_source() -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let mut rest = text.as_str();
                    while let Some(i) = rest.find("t!(") {
                        // `t!(`, not `format!(` or `assert!(`
                        let word = rest[..i]
                            .chars()
                            .next_back()
                            .is_some_and(|c| c.is_alphanumeric() || c == '_');
                        rest = rest[i + 3..].trim_start();
                        if word {
                            continue;
                        }
                        if let Some(r) = rest.strip_prefix('"') {
                            let end = r.find('"').unwrap();
                            let key = &r[..end];
                            // keys are kebab-case; anything else is not a call
                            if !key.is_empty()
                                && key.chars().all(|c| {
                                    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
                                })
                            {
                                out.insert(key.to_string());
                            }
                            rest = &r[end..];
                        }
                    }
                }
            }
        }
        // the macro's own documentation
        out.remove("key");
        out
    }

    #[test]
    fn plural_forms_and_arguments() {
        let n = |lang, k: &str, v: i64| {
            let mut a = FluentArgs::new();
            a.set("n", v);
            tr_in(lang, k, Some(&a))
        };
        assert_eq!(n(Lang::EnUs, "moves-count", 1), "1 move");
        assert_eq!(n(Lang::EnUs, "moves-count", 7), "7 moves");
        assert_eq!(n(Lang::ZhCn, "moves-count", 7), "7 手");
        assert_eq!(tr_in(Lang::ZhCn, "game-go", None), "围棋");
        assert_eq!(tr_in(Lang::EnUs, "no-such-key", None), "no-such-key");
    }

    /// The texts carry no isolation marks, and every Chinese character has a glyph in the font
    /// the window ships.
    #[test]
    fn every_chinese_character_is_in_the_shipped_font() {
        let font = crate::fonts::cjk_font_bytes();
        use skrifa::MetadataProvider;
        let face = skrifa::FontRef::new(font).expect("the shipped font parses");
        let cmap = face.charmap();
        let mut missing = std::collections::BTreeSet::new();
        for lang in Lang::ALL {
            for c in lang.source().chars() {
                assert!(!matches!(c, '\u{2068}' | '\u{2069}'));
                if !c.is_control() && cmap.map(c).is_none() {
                    missing.insert(c);
                }
            }
        }
        // the opening names (Chinese and Japanese) shown by the openings browser and the HUD
        for kind in qi_core::GameKind::ALL {
            let Some(book) = qi_core::openings::book(kind) else {
                continue;
            };
            for n in book.nodes.iter().filter_map(|n| n.name.as_ref()) {
                let texts = [Some(&n.en), n.zh.as_ref(), n.ja.as_ref()];
                for c in texts.into_iter().flatten().flat_map(|t| t.chars()) {
                    if cmap.map(c).is_none() {
                        missing.insert(c);
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "not in assets/fonts (run scripts/make-fonts.sh): {missing:?}"
        );
    }
}
