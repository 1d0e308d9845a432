//! Sound effects, synthesised at start-up into small WAV files in memory (nothing to download
//! or license): place, flip/capture, illegal, win, lose and menu.

use std::sync::Arc;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;
use qi_core::Outcome;

use crate::game::{GameEvent, Match, Player};
use crate::settings::Settings;

pub fn plugin(app: &mut App) {
    app.init_resource::<Sounds>()
        .add_systems(Startup, make_sounds)
        .add_systems(Update, play_game_sounds);
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    Place,
    Flip,
    Illegal,
    Win,
    Lose,
    Menu,
}

impl Effect {
    pub const ALL: [Effect; 6] = [
        Effect::Place,
        Effect::Flip,
        Effect::Illegal,
        Effect::Win,
        Effect::Lose,
        Effect::Menu,
    ];
}

#[derive(Resource, Default)]
pub struct Sounds(pub Vec<(Effect, Handle<AudioSource>)>);

const RATE: u32 = 22050;

/// One tone: frequency (Hz), start and length (s), with a quick attack and exponential decay.
struct Tone(f32, f32, f32);

fn tones(effect: Effect) -> Vec<Tone> {
    match effect {
        Effect::Place => vec![Tone(880.0, 0.0, 0.07), Tone(440.0, 0.0, 0.09)],
        Effect::Flip => vec![Tone(1320.0, 0.0, 0.05), Tone(1760.0, 0.04, 0.06)],
        Effect::Illegal => vec![Tone(150.0, 0.0, 0.18), Tone(155.0, 0.0, 0.18)],
        Effect::Win => vec![
            Tone(523.3, 0.0, 0.15),
            Tone(659.3, 0.12, 0.15),
            Tone(784.0, 0.24, 0.15),
            Tone(1046.5, 0.36, 0.35),
        ],
        Effect::Lose => vec![
            Tone(392.0, 0.0, 0.2),
            Tone(349.2, 0.18, 0.2),
            Tone(293.7, 0.36, 0.4),
        ],
        Effect::Menu => vec![Tone(660.0, 0.0, 0.04)],
    }
}

/// The effect as a 16-bit mono WAV file.
pub fn synth_wav(effect: Effect) -> Vec<u8> {
    let parts = tones(effect);
    let len = parts.iter().map(|t| t.1 + t.2).fold(0.0, f32::max);
    let n = (len * RATE as f32) as usize + 1;
    let mut samples = vec![0f32; n];
    for Tone(freq, start, dur) in &parts {
        let s0 = (start * RATE as f32) as usize;
        let count = (dur * RATE as f32) as usize;
        for i in 0..count {
            let t = i as f32 / RATE as f32;
            let env = (t / 0.004).min(1.0) * (-t * 5.0 / dur).exp();
            let v = (2.0 * std::f32::consts::PI * freq * t).sin()
                + 0.25 * (4.0 * std::f32::consts::PI * freq * t).sin();
            if let Some(s) = samples.get_mut(s0 + i) {
                *s += 0.3 * env * v;
            }
        }
    }
    let data: Vec<u8> = samples
        .iter()
        .flat_map(|s| ((s.clamp(-1.0, 1.0) * 32000.0) as i16).to_le_bytes())
        .collect();
    let mut wav = Vec::with_capacity(44 + data.len());
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&RATE.to_le_bytes());
    wav.extend_from_slice(&(RATE * 2).to_le_bytes());
    wav.extend_from_slice(&2u16.to_le_bytes());
    wav.extend_from_slice(&16u16.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&(data.len() as u32).to_le_bytes());
    wav.extend_from_slice(&data);
    wav
}

fn make_sounds(sources: Option<ResMut<Assets<AudioSource>>>, mut sounds: ResMut<Sounds>) {
    let Some(mut sources) = sources else { return };
    sounds.0 = Effect::ALL
        .iter()
        .map(|&e| {
            (
                e,
                sources.add(AudioSource {
                    bytes: Arc::from(synth_wav(e)),
                }),
            )
        })
        .collect();
}

/// Plays an effect at the settings' volume.
pub fn play(commands: &mut Commands, sounds: &Sounds, settings: &Settings, effect: Effect) {
    if settings.mute || settings.volume <= 0.0 {
        return;
    }
    if let Some((_, h)) = sounds.0.iter().find(|(e, _)| *e == effect) {
        commands.spawn((
            Name::new(format!("Sound {effect:?}")),
            AudioPlayer::new(h.clone()),
            PlaybackSettings::DESPAWN.with_volume(Volume::Linear(settings.volume)),
        ));
    }
}

fn play_game_sounds(
    mut events: MessageReader<GameEvent>,
    mut commands: Commands,
    sounds: Res<Sounds>,
    settings: Res<Settings>,
    game: Option<Res<Match>>,
) {
    for ev in events.read() {
        let effect = match ev {
            GameEvent::Placed => Effect::Place,
            GameEvent::Captured => Effect::Flip,
            GameEvent::Illegal => Effect::Illegal,
            GameEvent::Over(outcome) => {
                // Against the CPU, the human's result; otherwise a fanfare for any ending.
                let human = game
                    .as_ref()
                    .and_then(|g| g.setup.players.iter().position(|p| *p == Player::Human));
                match (outcome, human) {
                    (Outcome::Win(s), Some(h)) if g_vs_cpu(&game) && s.index() != h => Effect::Lose,
                    _ => Effect::Win,
                }
            }
        };
        play(&mut commands, &sounds, &settings, effect);
    }
}

fn g_vs_cpu(game: &Option<Res<Match>>) -> bool {
    game.as_ref().is_some_and(|g| g.vs_cpu())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wav_files_are_well_formed_and_small() {
        for e in Effect::ALL {
            let w = synth_wav(e);
            assert_eq!(&w[..4], b"RIFF");
            assert_eq!(&w[8..16], b"WAVEfmt ");
            let data_len = u32::from_le_bytes(w[40..44].try_into().unwrap()) as usize;
            assert_eq!(w.len(), 44 + data_len);
            assert!(w.len() < 64 * 1024, "{e:?} is {} bytes", w.len());
            // not silent
            assert!(
                w[44..]
                    .chunks(2)
                    .any(|c| i16::from_le_bytes([c[0], c[1]]).abs() > 1000),
                "{e:?}"
            );
        }
    }
}
