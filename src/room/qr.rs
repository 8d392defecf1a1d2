//! The room's join link as a QR code, drawn as SVG for the projector: one path of dark modules on
//! a white square with the four-module quiet zone the standard asks for, scaled by the page to
//! the size a phone at the back of a room can read.

use qrcode::{Color, EcLevel, QrCode};

/// `text` (the join link) as a QR code in SVG, at medium error correction (a projected code is
/// read at an angle and through glare), labelled for screen readers with `label`.
pub fn svg(text: &str, label: &str) -> Result<crate::markup::Markup, String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|e| format!("the join link does not fit in a QR code ({e})"))?;
    let width = code.width();
    let colors = code.to_colors();
    let quiet = 4;
    let side = width + 2 * quiet;
    let mut path = String::new();
    for (i, c) in colors.iter().enumerate() {
        if *c == Color::Dark {
            let (x, y) = (i % width + quiet, i / width + quiet);
            path.push_str(&format!("M{x} {y}h1v1h-1z"));
        }
    }
    Ok(crate::markup!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"{}\"><rect width=\"{}\" height=\"{}\" fill=\"#fff\"/><path d=\"{}\" fill=\"#000\"/></svg>",
        side,
        side,
        label,
        side,
        side,
        path
    ))
}

#[cfg(test)]
mod tests {
    /// The dark modules an SVG of [`super::svg`] draws, read back from its path, as a grid.
    fn modules(svg: &str) -> (usize, Vec<bool>) {
        let side: usize =
            svg.split("viewBox=\"0 0 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let path = svg.split(" d=\"").nth(1).unwrap().split('"').next().unwrap();
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
        let svg = super::svg(link, "Join the room <ABC234>").unwrap().into_string();
        assert!(svg.contains("aria-label=\"Join the room &lt;ABC234&gt;\""), "{svg}");
        let (side, grid) = modules(&svg);
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
        assert!(super::svg(&long, "x").unwrap_err().starts_with("the join link does not fit in a QR code"));
    }
}
