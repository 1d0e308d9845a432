//! The look: every colour the window uses is named once, in [`palette`].

pub mod palette;
