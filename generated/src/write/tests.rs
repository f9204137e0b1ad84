//! Unit tests of the writer: every value written byte for byte as `serde_json` writes it, and the
//! escape scanner's first special byte.

use super::*;

fn same<T: Serialize + ?Sized>(v: &T) {
    assert_eq!(String::from_utf8(serialize_to_vec(v).unwrap()).unwrap(), serde_json::to_string(v).unwrap());
}

#[test]
fn special_finds_the_first_escaped_byte() {
    for pos in 0..8 {
        for b in [b'"', b'\\', 0u8, 0x1f, b'\n'] {
            let mut w = [b'a'; 8];
            w[pos] = b;
            // A second special byte later must not move the answer.
            if pos < 7 {
                w[7] = b'"';
            }
            let m = special(u64::from_le_bytes(w));
            assert_eq!((m.trailing_zeros() / 8) as usize, pos, "{w:?}");
        }
    }
    for b in [b' ', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xa2, 0xdc, 0xff] {
        assert_eq!(special(u64::from_le_bytes([b; 8])), 0, "byte {b:#x}");
    }
}

#[test]
fn small_values_match_serde_json() {
    same("");
    same("a\"b\\c\u{1}\u{7f}é\u{2028}😀");
    same(&[1.5f64, -0.0, f64::NAN, 1e300]);
    same(&(1u8, -2i8, 'x', (), Some(3), None::<u8>));
    same(&[i64::MIN, i64::MAX]);
    same(&u64::MAX);
    same(&i128::MIN);
    same(&serde_json::json!({"a": [], "b": {}, "c": [{}], "d": null}));
}

#[test]
fn serialize_to_vec_into_appends_and_restores_on_error() {
    let mut buf = b"x".to_vec();
    serialize_to_vec_into(&mut buf, &[1, 2]).unwrap();
    assert_eq!(buf, b"x[1,2]");
    let mut bad = std::collections::BTreeMap::new();
    bad.insert(vec![1], 2);
    let e = serialize_to_vec_into(&mut buf, &[bad.clone()]).unwrap_err();
    assert_eq!(buf, b"x[1,2]");
    assert_eq!(e.to_string(), serde_json::to_vec(&bad).unwrap_err().to_string());
}

#[test]
fn serialize_to_writer_and_serialize_to_string() {
    let v = serde_json::json!({"k": "v\n"});
    let mut out = Vec::new();
    serialize_to_writer(&mut out, &v).unwrap();
    assert_eq!(out, serde_json::to_vec(&v).unwrap());
    assert_eq!(serialize_to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
}

#[test]
fn entry_points_write_json_like_serde_json() {
    let v = serde_json::json!({"k": "v\n", "n": null, "big": u64::MAX, "neg": i64::MIN, "f": [0.1, -0.0, 1e300, 2.5e-8], "_meta": {"a": [true]}});
    let want = serde_json::to_vec(&v).unwrap();
    assert_eq!(to_vec(&v), want);
    let mut buf = b"x".to_vec();
    to_vec_into(&mut buf, &v);
    assert_eq!(buf[1..], want[..]);
    let mut out = Vec::new();
    to_writer(&mut out, &v).unwrap();
    assert_eq!(out, want);
    assert_eq!(to_string(&v).as_bytes(), &want[..]);
    // Through references, boxes and options, as `serde_json` writes them.
    assert_eq!(to_vec(&&v), want);
    assert_eq!(to_vec(&Box::new(v.clone())), want);
    assert_eq!(to_vec(&None::<serde_json::Value>), b"null");
    assert_eq!(to_vec(&[Some(1u64), None][..]), b"[1,null]");
}

#[test]
fn to_writer_reports_the_writers_error() {
    struct Full;
    impl io::Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    assert_eq!(to_writer(Full, &serde_json::json!([1])).unwrap_err().kind(), io::ErrorKind::StorageFull);
}
