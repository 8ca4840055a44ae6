package core

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"
)

func TestTmpBound(t *testing.T) {
	b, _ := os.ReadFile("/work/shared/data/qa/squad11/dev-half.json")
	var s struct {
		Data []struct {
			Paragraphs []struct {
				Context string
				QAs     []struct {
					Answers []struct {
						Text  string
						Start int `json:"answer_start"`
					}
				} `json:"qas"`
			}
		}
	}
	json.Unmarshal(b, &s)
	cnt := map[string]int{}
	ex := map[string][]string{}
	n := 0
	for _, a := range s.Data {
		for _, p := range a.Paragraphs {
			d, _ := NewDoc(p.Context, 0)
			// byte offsets -> rune offsets
			rs := []rune(p.Context)
			byteToRune := map[int]int{}
			bi := 0
			for i, r := range rs {
				byteToRune[bi] = i
				bi += len(string(r))
			}
			byteToRune[bi] = len(rs)
			starts, ends := map[int]bool{}, map[int]bool{}
			for _, tk := range d.Toks {
				starts[tk.Start] = true
				ends[tk.End] = true
			}
			for _, q := range p.QAs {
				for _, an := range q.Answers[:1] {
					n++
					// answer_start is in characters (Python code points)
					st := an.Start
					en := st + len([]rune(an.Text))
					_ = byteToRune
					if !starts[st] {
						k := "start:" + string(rs[max(0, st-1)])
						cnt[k]++
						ex[k] = append(ex[k], string(rs[max(0, st-10):min(len(rs), en+3)]))
					}
					if !ends[en] {
						k := "end:" + string(rs[min(len(rs)-1, en)])
						cnt[k]++
						ex[k] = append(ex[k], string(rs[max(0, st-3):min(len(rs), en+10)]))
					}
				}
			}
		}
	}
	var ks []string
	for k := range cnt {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return cnt[ks[i]] > cnt[ks[j]] })
	fmt.Println("questions", n)
	for _, k := range ks[:min(25, len(ks))] {
		fmt.Printf("%d %q %q\n", cnt[k], k, ex[k][:min(3, len(ex[k]))])
	}
}
