package jobspec

import "testing"

func TestEvalExpr(t *testing.T) {
	tests := []struct {
		in   string
		time bool
		want int64
		ok   bool
	}{
		{"(2*2048)", false, 4096, true},
		{"(1+2*3)", false, 7, true},   // precedence
		{"((1+2)*3)", false, 9, true}, // parentheses
		{"(2^10)", false, 1024, true}, // power
		{"(2^3^2)", false, 512, true}, // right-associative
		{"(-4+10)", false, 6, true},   // unary minus
		{"(7/2)", false, 3, true},     // integer division
		{"(7%3)", false, 1, true},     // modulus
		{"(1.5*1024)", false, 1536, true},
		{"(1e3)", false, 1000, true},  // exponent notation
		{"(0x10+1)", false, 17, true}, // hexadecimal
		{"(4k)", false, 4096, true},   // units
		{"(4kb)", false, 4096, true},
		{"(4kib)", false, 4000, true}, // the three-letter forms are decimal
		{"(1m-1k)", false, 1047552, true},
		{"(1.5g)", false, 1610612736, true},
		{"( 2 * 3 )", false, 6, true},  // blanks
		{"(2*3):junk", false, 6, true}, // text after ':' is ignored
		{"(2)x", false, 2, true},       // and after the parenthesis
		{"(2)", true, 2, true},         // times without a unit are µs
		{"(2s)", true, 2 * second, true},
		{"(1m+30s)", true, 90 * second, true}, // m is minutes in times
		{"(10ms)", true, 10 * msec, true},
		{"(1/0)", false, 0, false},
		{"(1+)", false, 0, false},
		{"(2", false, 0, false},
		{"()", false, 0, false},
		{"(abc)", false, 0, false},
		// Results that do not fit in 64 bits are refused, never wrapped.
		{"(9999999999999*9999999999999)", false, 0, false},
		{"(2^63)", false, 0, false},
		{"(2^64)", false, 0, false},
		{"(2^62*2)", false, 0, false},
		{"(9223372036854775807+1)", false, 0, false},
		{"(-9223372036854775807-2)", false, 0, false},
		{"(8e18+8e18)", false, 0, false},
		{"(9e18*1k)", false, 0, false},
		{"(8388608t)", false, 0, false},
		{"(1e400)", false, 0, false},
		{"(2^62)", false, 1 << 62, true},
		{"(9223372036854775807)", false, 9223372036854775807, true},
		{"(-2^63+1)", false, -9223372036854775807, true},
		{"(8191p)", false, 8191 << 50, true},
	}
	for _, tt := range tests {
		got, err := evalExpr(tt.in, tt.time)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("evalExpr(%q, time=%v) = %d, %v; want %d (ok %v)", tt.in, tt.time, got, err, tt.want, tt.ok)
		}
	}
	// Through the option reader: bs=(2*2048) and runtime=(2s).
	if v, err := parseSize("(2*2048)", 1024); err != nil || v.N != 4096 {
		t.Errorf("parseSize((2*2048)) = %v, %v", v, err)
	}
	if v, err := parseTimeInt("(2)", second); err != nil || v != 2 {
		t.Errorf("parseTimeInt((2), s) = %v, %v; want 2 µs", v, err)
	}
}
