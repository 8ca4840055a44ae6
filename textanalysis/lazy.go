package textanalysis

import "sync"

// registry loads one value per name, once, on first use, and keeps it (and
// the error, so a broken model is not retried on every request).
// Callers pass only known names, so the map stays small.
type registry[K comparable, T any] struct {
	mu    sync.Mutex
	load  func(name K) (T, error)
	items map[K]func() (T, error)
}

func newRegistry[K comparable, T any](load func(K) (T, error)) *registry[K, T] {
	return &registry[K, T]{load: load, items: map[K]func() (T, error){}}
}

func (r *registry[K, T]) get(name K) (T, error) {
	r.mu.Lock()
	f, ok := r.items[name]
	if !ok {
		f = sync.OnceValues(func() (T, error) { return r.load(name) })
		r.items[name] = f
	}
	r.mu.Unlock()
	return f()
}
