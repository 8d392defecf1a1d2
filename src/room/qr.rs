//! The room's join link as a QR code, for the page to draw as SVG for the projector: one path of
//! dark modules on a white square with the four-module quiet zone the standard asks for, scaled by the page to
//! the size a phone at the back of a room can read.

use qrcode::{Color, EcLevel, QrCode};

/// A QR code drawn as one SVG path: the side of its square in modules, the quiet zone included,
/// and the path of its dark modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qr {
    pub side: usize,
    pub path: String,
}

/// `text` (the join link) as a QR code, at medium error correction (a projected code is read at
/// an angle and through glare).
pub fn code(text: &str) -> Result<Qr, String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|e| format!("the join link does not fit in a QR code ({e})"))?;
    let width = code.width();
    let colors = code.to_colors();
    let quiet = 4;
    let mut path = String::new();
    for (i, c) in colors.iter().enumerate() {
        if *c == Color::Dark {
            let (x, y) = (i % width + quiet, i / width + quiet);
            path.push_str(&format!("M{x} {y}h1v1h-1z"));
        }
    }
    Ok(Qr { side: width + 2 * quiet, path })
}

#[cfg(test)]
mod tests {
    /// The dark modules a [`super::Qr`]'s path draws, read back from it, as a grid.
    fn modules(qr: &super::Qr) -> (usize, Vec<bool>) {
        let (side, path) = (qr.side, qr.path.as_str());
        let mut grid = vec![false; side * side];
        for m in path.split('M').filter(|m| !m.is_empty()) {
            let xy: Vec<usize> =
                m.trim_end_matches("h1v1h-1z").split(' ').map(|n| n.parse().unwrap()).collect();
            grid[xy[1] * side + xy[0]] = true;
        }
        (side, grid)
    }

    #[test]
    fn the_join_link_reads_back_from_the_drawn_code_as_a_camera_reads_it() {
        let link = "https://agora.example/school/#room=aSecretOf22Characters&r=ABC234";
        let (side, grid) = modules(&super::code(link).unwrap());
        // Drawn at 6 pixels a module, as a picture of the projector would be.
        let scale = 6;
        let px = side * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(px, px, |x, y| {
            if grid[(y / scale) * side + x / scale] {
                0
            } else {
                255
            }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one code found");
        let (_, content) = grids[0].decode().expect("the code reads");
        assert_eq!(content, link);
        // The quiet zone is white all round.
        assert!((0..side).all(|i| !grid[i]
            && !grid[(side - 1) * side + i]
            && !grid[i * side]
            && !grid[i * side + side - 1]));
    }

    #[test]
    fn a_link_too_long_for_any_code_says_so() {
        let long = "x".repeat(3000);
        assert!(super::code(&long).unwrap_err().starts_with("the join link does not fit in a QR code"));
    }
}
