package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || len(args)%2 != 0 {
		fmt.Fprintln(os.Stderr, "usage: pngdiff OLD.png NEW.png [...]")
		os.Exit(2)
	}
	status := 0
	for i := 0; i < len(args); i += 2 {
		msg, err := compare(args[i], args[i+1])
		if err != nil {
			fmt.Printf("%s %s: %v\n", args[i], args[i+1], err)
			status = 1
			continue
		}
		fmt.Printf("%s: %s\n", args[i+1], msg)
		if msg != "same pixels" {
			status = 1
		}
	}
	os.Exit(status)
}

func compare(a, b string) (string, error) {
	ia, err := decode(a)
	if err != nil {
		return "", err
	}
	ib, err := decode(b)
	if err != nil {
		return "", err
	}
	if ia.Bounds() != ib.Bounds() {
		return fmt.Sprintf("bounds %v, was %v", ib.Bounds(), ia.Bounds()), nil
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.RGBA64Model.Convert(ia.At(x, y))
			cb := color.RGBA64Model.Convert(ib.At(x, y))
			if ca != cb {
				return fmt.Sprintf("pixel (%d,%d) is %v, was %v", x, y, cb, ca), nil
			}
		}
	}
	return "same pixels", nil
}

func decode(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}
