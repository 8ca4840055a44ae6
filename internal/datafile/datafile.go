package datafile

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Open opens path for reading, decompressing it when its name ends in
// ".gz". Closing the result closes the file.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return gzipFile{zr, f}, nil
}

type gzipFile struct {
	*gzip.Reader
	file *os.File
}

func (g gzipFile) Close() error {
	zerr := g.Reader.Close()
	if err := g.file.Close(); err != nil {
		return err
	}
	return zerr
}
