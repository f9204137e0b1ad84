use super::*;

fn same<T: Serialize + ?Sized>(v: &T) {
    assert_eq!(String::from_utf8(to_vec(v).unwrap()).unwrap(), serde_json::to_string(v).unwrap());
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
fn to_vec_into_appends_and_restores_on_error() {
    let mut buf = b"x".to_vec();
    to_vec_into(&mut buf, &[1, 2]).unwrap();
    assert_eq!(buf, b"x[1,2]");
    let mut bad = std::collections::BTreeMap::new();
    bad.insert(vec![1], 2);
    let e = to_vec_into(&mut buf, &[bad.clone()]).unwrap_err();
    assert_eq!(buf, b"x[1,2]");
    assert_eq!(e.to_string(), serde_json::to_vec(&bad).unwrap_err().to_string());
}

#[test]
fn to_writer_and_to_string() {
    let v = serde_json::json!({"k": "v\n"});
    let mut out = Vec::new();
    to_writer(&mut out, &v).unwrap();
    assert_eq!(out, serde_json::to_vec(&v).unwrap());
    assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
}
