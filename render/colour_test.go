package render

// Colour science for the legibility tests: WCAG contrast, simulated
// colour-vision deficiencies and CIEDE2000 colour differences.

import (
	"image/color"
	"math"
	"testing"
)

// linear is an sRGB channel (0–255) in linear light.
func linear(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// encode is a linear channel back in sRGB, clamped.
func encode(v float64) uint8 {
	v = min(max(v, 0), 1)
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(v * 255))
}

// luminance is WCAG 2's relative luminance.
func luminance(c color.RGBA) float64 {
	return 0.2126*linear(c.R) + 0.7152*linear(c.G) + 0.0722*linear(c.B)
}

// contrast is WCAG 2's contrast ratio, 1 to 21.
func contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// vision is a colour vision: none (trichromacy) or a dichromacy
// simulated with the matrices of Machado, Oliveira and Fernandes (2009)
// at severity 1, applied in linear RGB.
type vision struct {
	name string
	m    *[3][3]float64 // nil: normal
}

var visions = []vision{
	{"normal", nil},
	{"protanopia", &[3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", &[3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", &[3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}},
}

// see is c as someone with vision v sees it.
func (v vision) see(c color.RGBA) color.RGBA {
	if v.m == nil {
		return c
	}
	in := [3]float64{linear(c.R), linear(c.G), linear(c.B)}
	var out [3]uint8
	for i, row := range v.m {
		out[i] = encode(row[0]*in[0] + row[1]*in[1] + row[2]*in[2])
	}
	return color.RGBA{out[0], out[1], out[2], 0xff}
}

// lab is c in CIELAB (D65).
func lab(c color.RGBA) [3]float64 {
	r, g, b := linear(c.R), linear(c.G), linear(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// deltaE is the CIEDE2000 difference of two CIELAB colours: about 2 is
// just noticeable, 10 plainly different, 20 and more other colours.
func deltaE(p, q [3]float64) float64 {
	rad, deg := math.Pi/180, 180/math.Pi
	c1, c2 := math.Hypot(p[1], p[2]), math.Hypot(q[1], q[2])
	cb7 := math.Pow((c1+c2)/2, 7)
	g := 0.5 * (1 - math.Sqrt(cb7/(cb7+math.Pow(25, 7))))
	a1, a2 := (1+g)*p[1], (1+g)*q[1]
	c1p, c2p := math.Hypot(a1, p[2]), math.Hypot(a2, q[2])
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		return math.Mod(math.Atan2(b, a)*deg+360, 360)
	}
	h1, h2 := hue(p[2], a1), hue(q[2], a2)
	dL, dC := q[0]-p[0], c2p-c1p
	dh := 0.0
	if c1p*c2p != 0 {
		dh = h2 - h1
		switch {
		case dh > 180:
			dh -= 360
		case dh < -180:
			dh += 360
		}
	}
	dH := 2 * math.Sqrt(c1p*c2p) * math.Sin(dh/2*rad)
	lb, cbp := (p[0]+q[0])/2, (c1p+c2p)/2
	hb := h1 + h2
	if c1p*c2p != 0 {
		switch {
		case math.Abs(h1-h2) <= 180:
			hb = (h1 + h2) / 2
		case h1+h2 < 360:
			hb = (h1 + h2 + 360) / 2
		default:
			hb = (h1 + h2 - 360) / 2
		}
	}
	t := 1 - 0.17*math.Cos((hb-30)*rad) + 0.24*math.Cos(2*hb*rad) + 0.32*math.Cos((3*hb+6)*rad) - 0.20*math.Cos((4*hb-63)*rad)
	dth := 30 * math.Exp(-math.Pow((hb-275)/25, 2))
	cbp7 := math.Pow(cbp, 7)
	rc := 2 * math.Sqrt(cbp7/(cbp7+math.Pow(25, 7)))
	sl := 1 + 0.015*(lb-50)*(lb-50)/math.Sqrt(20+(lb-50)*(lb-50))
	sc, sh := 1+0.045*cbp, 1+0.015*cbp*t
	rt := -math.Sin(2*dth*rad) * rc
	return math.Sqrt(math.Pow(dL/sl, 2) + math.Pow(dC/sc, 2) + math.Pow(dH/sh, 2) + rt*(dC/sc)*(dH/sh))
}

// worstDeltaE is the smallest difference of a and b over the visions,
// and the vision it is for.
func worstDeltaE(a, b color.RGBA) (float64, string) {
	worst, who := math.Inf(1), ""
	for _, v := range visions {
		if d := deltaE(lab(v.see(a)), lab(v.see(b))); d < worst {
			worst, who = d, v.name
		}
	}
	return worst, who
}

// TestColourScience checks the formulas against published values: the
// CIEDE2000 test data of Sharma, Wu and Dalal (2005), WCAG's extremes, and
// the dichromacies leaving greys grey.
func TestColourScience(t *testing.T) {
	for _, tt := range []struct {
		p, q [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, -1, 2}, [3]float64{50, 0, 0}, 2.3669},
		{[3]float64{50, 2.5, 0}, [3]float64{73, 25, -18}, 27.1492},
		{[3]float64{22.7233, 20.0904, -46.6940}, [3]float64{23.0331, 14.9730, -42.5619}, 2.0373},
		{[3]float64{2.0776, 0.0795, -1.1350}, [3]float64{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		if got := deltaE(tt.p, tt.q); math.Abs(got-tt.want) > 1e-4 {
			t.Fatalf("deltaE(%v, %v)=%.4f, want %.4f", tt.p, tt.q, got, tt.want)
		}
	}
	black, white := rgb(0), rgb(0xffffff)
	if got := contrast(black, white); math.Abs(got-21) > 1e-9 {
		t.Fatalf("contrast(black, white)=%v, want 21", got)
	}
	for _, v := range visions {
		grey := rgb(0x767676)
		if got := v.see(grey); got != grey {
			t.Fatalf("%s sees %v as %v", v.name, grey, got)
		}
	}
	// Red and green, which protanopes and deuteranopes confuse.
	if d, who := worstDeltaE(rgb(0xdd2e44), rgb(0x78b159)); d > 12 || who != "deuteranopia" {
		t.Fatalf("red/green worst ΔE %.1f (%s), want < 12 for deuteranopia", d, who)
	}
}
