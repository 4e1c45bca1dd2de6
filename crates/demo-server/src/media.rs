//! Tiny binary media generated in code: a 16x16 PNG and a 0.1 s WAV tone.
//!
//! Both are built from first principles (no image/audio crates) so the demo
//! server stays small, and both are real, decodable files.

use std::sync::LazyLock;

use base64::{Engine, engine::general_purpose::STANDARD};

/// Side length of the demo PNG, in pixels.
pub const PNG_SIZE: u32 = 16;
/// Sample rate of the demo WAV, in Hz.
pub const WAV_SAMPLE_RATE: u32 = 8_000;
/// Frequency of the demo WAV's sine tone, in Hz.
pub const WAV_TONE_HZ: f64 = 440.0;
/// Length of the demo WAV, in milliseconds.
pub const WAV_DURATION_MS: u32 = 100;

static PNG: LazyLock<Vec<u8>> = LazyLock::new(build_png);
static PNG_BASE64: LazyLock<String> = LazyLock::new(|| STANDARD.encode(PNG.as_slice()));
static WAV: LazyLock<Vec<u8>> = LazyLock::new(build_wav);
static WAV_BASE64: LazyLock<String> = LazyLock::new(|| STANDARD.encode(WAV.as_slice()));

/// The demo PNG's bytes.
pub fn png_bytes() -> &'static [u8] {
    PNG.as_slice()
}

/// The demo PNG, base64-encoded (standard alphabet, padded).
pub fn png_base64() -> &'static str {
    PNG_BASE64.as_str()
}

/// The demo WAV's bytes.
#[cfg(test)]
pub fn wav_bytes() -> &'static [u8] {
    WAV.as_slice()
}

/// The demo WAV, base64-encoded (standard alphabet, padded).
pub fn wav_base64() -> &'static str {
    WAV_BASE64.as_str()
}

/// A 16x16 RGBA "periscope lens": a teal disc with a white highlight on a
/// transparent background.
fn build_png() -> Vec<u8> {
    let size = PNG_SIZE as usize;
    let mut raw = Vec::with_capacity(size * (1 + size * 4));
    let centre = (size as f64 - 1.0) / 2.0;
    for y in 0..size {
        raw.push(0); // filter type: None
        for x in 0..size {
            let dx = x as f64 - centre;
            let dy = y as f64 - centre;
            let distance = (dx * dx + dy * dy).sqrt();
            let hx = x as f64 - (centre - 2.5);
            let hy = y as f64 - (centre - 2.5);
            let highlight = (hx * hx + hy * hy).sqrt();
            let pixel: [u8; 4] = if distance > 7.6 {
                [0, 0, 0, 0]
            } else if distance > 6.4 {
                [12, 74, 110, 255] // dark rim
            } else if highlight < 1.8 {
                [255, 255, 255, 255]
            } else {
                let shade = (distance / 6.4 * 60.0) as u8;
                [20, 170 - shade, 180 - shade, 255]
            };
            raw.extend_from_slice(&pixel);
        }
    }

    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&PNG_SIZE.to_be_bytes());
    ihdr.extend_from_slice(&PNG_SIZE.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8-bit RGBA, deflate, no filter, no interlace

    let mut png = Vec::new();
    png.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    push_chunk(&mut png, b"IHDR", &ihdr);
    push_chunk(&mut png, b"IDAT", &zlib_stored(&raw));
    push_chunk(&mut png, b"IEND", &[]);
    png
}

fn push_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A zlib stream holding `data` in uncompressed ("stored") deflate blocks.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    const MAX_BLOCK: usize = 65_535;
    let mut out = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = if data.is_empty() {
        vec![&[]]
    } else {
        data.chunks(MAX_BLOCK).collect()
    };
    let last = blocks.len() - 1;
    for (index, block) in blocks.into_iter().enumerate() {
        out.push(u8::from(index == last));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % MOD;
        b = (b + a) % MOD;
    }
    (b << 16) | a
}

/// 0.1 s of a 440 Hz sine tone: mono, 16-bit PCM, 8 kHz, with a short fade
/// in and out so it does not click.
fn build_wav() -> Vec<u8> {
    let samples = (WAV_SAMPLE_RATE * WAV_DURATION_MS / 1000) as usize;
    let fade = samples / 10;
    let mut pcm = Vec::with_capacity(samples * 2);
    for n in 0..samples {
        let t = n as f64 / f64::from(WAV_SAMPLE_RATE);
        let envelope = if n < fade {
            n as f64 / fade as f64
        } else if n >= samples - fade {
            (samples - 1 - n) as f64 / fade as f64
        } else {
            1.0
        };
        let value = (2.0 * std::f64::consts::PI * WAV_TONE_HZ * t).sin() * envelope * 0.5;
        let sample = (value * f64::from(i16::MAX)) as i16;
        pcm.extend_from_slice(&sample.to_le_bytes());
    }

    let channels: u16 = 1;
    let bits_per_sample: u16 = 16;
    let block_align = channels * bits_per_sample / 8;
    let byte_rate = WAV_SAMPLE_RATE * u32::from(block_align);
    let data_len = pcm.len() as u32;

    let mut wav = Vec::with_capacity(44 + pcm.len());
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVE");
    wav.extend_from_slice(b"fmt ");
    wav.extend_from_slice(&16u32.to_le_bytes());
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&channels.to_le_bytes());
    wav.extend_from_slice(&WAV_SAMPLE_RATE.to_le_bytes());
    wav.extend_from_slice(&byte_rate.to_le_bytes());
    wav.extend_from_slice(&block_align.to_le_bytes());
    wav.extend_from_slice(&bits_per_sample.to_le_bytes());
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.extend_from_slice(&pcm);
    wav
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_known_vector() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn adler32_matches_known_vector() {
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }

    #[test]
    fn png_has_valid_structure() {
        let png = png_bytes();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // Walk the chunks and check every CRC.
        let mut offset = 8;
        let mut kinds = Vec::new();
        while offset < png.len() {
            let len = u32::from_be_bytes(png[offset..offset + 4].try_into().unwrap()) as usize;
            let body = &png[offset + 4..offset + 8 + len];
            let crc =
                u32::from_be_bytes(png[offset + 8 + len..offset + 12 + len].try_into().unwrap());
            assert_eq!(crc32(body), crc);
            kinds.push(String::from_utf8(body[..4].to_vec()).unwrap());
            offset += 12 + len;
        }
        assert_eq!(kinds, ["IHDR", "IDAT", "IEND"]);
        assert_eq!(&png[16..20], &16u32.to_be_bytes());
        assert_eq!(&png[20..24], &16u32.to_be_bytes());
    }

    #[test]
    fn wav_has_valid_header() {
        let wav = wav_bytes();
        assert_eq!(&wav[..4], b"RIFF");
        assert_eq!(&wav[8..12], b"WAVE");
        assert_eq!(
            u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize,
            wav.len() - 8
        );
        assert_eq!(u32::from_le_bytes(wav[40..44].try_into().unwrap()), 1600);
        assert_eq!(wav.len(), 44 + 1600);
    }

    #[test]
    fn base64_round_trips() {
        assert_eq!(STANDARD.decode(png_base64()).unwrap(), png_bytes());
        assert_eq!(STANDARD.decode(wav_base64()).unwrap(), wav_bytes());
    }
}
