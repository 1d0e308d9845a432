//! Reading `\n`-ended frames from a byte stream with a size cap, so that a peer (or anything
//! else that connects) cannot make us buffer without bound.

use std::io::{self, BufRead};

/// What one read gave.
#[derive(Debug)]
pub enum Frame {
    /// One frame, its `\n` removed.
    Line(Vec<u8>),
    /// More than the cap before a `\n`: the stream cannot be trusted to go on.
    TooLong(usize),
    /// The other end closed the stream.
    Eof,
}

/// Reads the next frame of at most `max` bytes (without its `\n`). A frame cut by the end of
/// the stream is dropped (`Eof`). Timeouts and other errors come back as `Err`; a timed-out
/// read keeps what it had read in `buf` for the next call.
pub fn read_frame<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, max: usize) -> io::Result<Frame> {
    loop {
        let available = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            buf.clear();
            return Ok(Frame::Eof);
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let total = buf.len() + i;
                if total > max {
                    r.consume(i + 1);
                    buf.clear();
                    return Ok(Frame::TooLong(total));
                }
                buf.extend_from_slice(&available[..i]);
                r.consume(i + 1);
                return Ok(Frame::Line(std::mem::take(buf)));
            }
            None => {
                let n = available.len();
                if buf.len() + n > max {
                    let total = buf.len() + n;
                    r.consume(n);
                    buf.clear();
                    return Ok(Frame::TooLong(total));
                }
                buf.extend_from_slice(available);
                r.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn splits_lines_caps_their_size_and_sees_the_end() {
        let data = b"one\ntwo\n0123456789ABCDEF\nlast-without-newline".to_vec();
        // A tiny buffer, so that frames span several reads.
        let mut r = BufReader::with_capacity(3, &data[..]);
        let mut buf = Vec::new();
        let mut next = || read_frame(&mut r, &mut buf, 10).unwrap();
        assert!(matches!(next(), Frame::Line(l) if l == b"one"));
        assert!(matches!(next(), Frame::Line(l) if l == b"two"));
        assert!(matches!(next(), Frame::TooLong(n) if n > 10));
        // A frame cut by the end of the stream is not a frame.
        let mut r = BufReader::with_capacity(4, &b"ok\ncut-off"[..]);
        let mut buf = Vec::new();
        assert!(matches!(read_frame(&mut r, &mut buf, 10).unwrap(), Frame::Line(l) if l == b"ok"));
        assert!(matches!(
            read_frame(&mut r, &mut buf, 10).unwrap(),
            Frame::Eof
        ));
    }
}
