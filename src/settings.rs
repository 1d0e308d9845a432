//! Player settings: sound, animation speed, legal-move hints, default CPU levels.

use bevy::prelude::*;
use qi_core::GameKind;

pub fn plugin(app: &mut App) {
    app.init_resource::<Settings>();
}

#[derive(Resource, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// 0.0 ..= 1.0
    pub volume: f32,
    pub mute: bool,
    /// 1.0 normal, 0.0 no animation.
    pub animation_speed: f32,
    /// Show where the side to move may play (on by default for Ataxx and Reversi).
    pub show_legal_moves: bool,
    pub eval_bar: bool,
    /// Default CPU level per game (Ataxx, Reversi, Gomoku, Go).
    pub default_level: [u8; 4],
    /// CPU time per move in milliseconds per game.
    pub cpu_time_ms: [u32; 4],
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            volume: 0.6,
            mute: false,
            animation_speed: 1.0,
            show_legal_moves: true,
            eval_bar: true,
            default_level: [3; 4],
            cpu_time_ms: [1000, 1000, 1000, 2000],
        }
    }
}

impl Settings {
    pub fn level(&self, kind: GameKind) -> u8 {
        self.default_level[kind as usize]
    }
}
