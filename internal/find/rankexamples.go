package find

import (
	_ "embed"
	"encoding/json"
	"math"
	"strings"
)

// What people asked of the real aeat, and the tools that answered them:
// examples.json holds every request of the sets the ranking is measured
// on (TestRank_HeldOut's measuredSets) — eighteen of them written blind
// by people who never saw the ranker, for personas from a nurse to a
// beekeeper, each request with the tools that rightly answer it and its
// reasons in testdata/find/. The file is those sets as data, written from
// them by `go test ./internal/find -run TestExamples_AreTheMeasuredSets
// -update` and held to them by that test.
//
// A request that says much of what one of them said most likely wants
// what that one wanted, even in words the help and the paraphrases never
// use: "Add my son to my profile… It should count for the renta" is
// nearly set 17's "add my two kids to my profile so they count on my tax
// return". So each tool's match is raised by how near the request is to
// the nearest example that wanted it (nearExample): a cosine over the
// words' stems, each weighed by how rare it is among the examples, from
// exampleFloor up. Each tool's command path is an example too, so that a
// request that names a verb ("ledger status") stays nearest to it. It
// only reorders the tools the request's words found; it finds none by
// itself.
//
// When it was made (sets up to 22, 865 requests), each set ranked with
// its own requests left out, as TestRank_HeldOut ranks them: 845 → 852 in
// the first three, three of set 22's four misses found, two requests
// lost. Then sets 23 and 24, written blind meanwhile and measured once:
// 73 of 80 without the examples, 76 with them (BENCHMARKS.md
// "aeat_mcp_find's examples"). Like the paraphrases, the examples are
// about aeat alone.

//go:embed examples.json
var examplesJSON []byte

// exampleSet is one measured set of requests, as examples.json holds it.
type exampleSet struct {
	Name     string    `json:"name"`
	Requests []example `json:"requests"`
}

// example is one request and the tools that answer it.
type example struct {
	Text  string   `json:"text"`
	Tools []string `json:"tools"`
}

// aeatExamples is examples.json read at the first query. The file is part
// of the binary and held to the sets by a test: a broken one panics.
var aeatExamples = &lazy[[]exampleSet]{build: func() []exampleSet {
	var sets []exampleSet
	if err := json.Unmarshal(examplesJSON, &sets); err != nil {
		panic("find: examples.json: " + err.Error())
	}
	return sets
}}

// examplesFor are the examples of the CLI a manifest runs (its
// cli.command, as paraphrasesFor reads it): aeat's for aeat, none for any
// other program.
func examplesFor(command string) []exampleSet {
	if paraphrasesFor(command) == nil {
		return nil
	}
	return aeatExamples.get()
}

const (
	// exampleFloor: an example nearer than this says too little of the
	// request to vouch for its tools (one rare word in common).
	exampleFloor = 0.2
	// exampleWeight: a tool wanted by an example as near as can be (the
	// same words) has its match counted this much more: twice.
	exampleWeight = 1.0
)

// exampleIndex is the examples as the ranking reads them: each example's
// stems, each stem's weight, the examples that say it, and the entries
// (rankIndex.entries) of the tools each example wanted.
type exampleIndex struct {
	weight  map[string]float64 // a stem's rarity among the examples
	unseen  float64            // … for a stem no example says
	holders map[string][]int32 // a stem's examples
	norm    []float64          // each example's length, by its stems' weights
	tools   [][]int32          // each example's tools, as entries
}

// newExampleIndex reads sets for the tools of entries: an example's tool
// the index does not have is left out (a manifest of fewer verbs). No
// sets, no examples: the index ranks by words alone.
func newExampleIndex(sets []exampleSet, entries []rankEntry) exampleIndex {
	x := exampleIndex{weight: map[string]float64{}, holders: map[string][]int32{}}
	if len(sets) == 0 {
		return x
	}
	var stemsOf [][]string
	add := func(text string, tools []int32) {
		id := int32(len(x.tools))
		x.tools = append(x.tools, tools)
		stems := exampleStems(text)
		stemsOf = append(stemsOf, stems)
		for _, s := range stems {
			x.holders[s] = append(x.holders[s], id)
		}
	}
	// Each tool's command path is an example of a request for it, the
	// first: "ledger status" is nearest to ledger status, not to the
	// examples that say "status" of another verb.
	entryOf := make(map[string]int32, len(entries))
	for i, e := range entries {
		entryOf[e.tool.Name] = int32(i)
		add(strings.Join(commandPath(e.tool.Command), " "), []int32{int32(i)})
	}
	for _, set := range sets {
		for _, ex := range set.Requests {
			var tools []int32
			for _, name := range ex.Tools {
				if i, ok := entryOf[name]; ok {
					tools = append(tools, i)
				}
			}
			if len(tools) > 0 {
				add(ex.Text, tools)
			}
		}
	}
	n := float64(len(x.tools))
	x.unseen = math.Log(1 + n)
	for s, h := range x.holders {
		x.weight[s] = math.Log(1 + n/float64(1+len(h)))
	}
	x.norm = make([]float64, len(x.tools))
	for i, stems := range stemsOf {
		for _, s := range stems {
			x.norm[i] += x.weight[s] * x.weight[s]
		}
		x.norm[i] = math.Sqrt(x.norm[i])
	}
	return x
}

// exampleStems are text's words' stems, each once, as a request's are
// (rankQuery.stems): its paths left out.
func exampleStems(text string) []string {
	said, _ := withoutPaths(text)
	return stemsOf(words(said))
}

// stemsOf are ws's stems, each once.
func stemsOf(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = stem(w)
	}
	return dedupe(out)
}

// nearExample is, for each entry, how near stems (a request's) are to the
// nearest example that wanted that entry's tool, from exampleFloor up; 0
// when none is that near. nil when the index has no examples.
func (x exampleIndex) nearExample(stems []string, entries int) []float64 {
	if len(x.tools) == 0 {
		return nil
	}
	dot := map[int32]float64{}
	qnorm := 0.0
	for _, s := range stems {
		w, ok := x.weight[s]
		if !ok {
			w = x.unseen // a rare word: the request says more than any example
		}
		qnorm += w * w
		for _, id := range x.holders[s] {
			dot[id] += w * w
		}
	}
	near := make([]float64, entries)
	for id, d := range dot {
		sim := d / (math.Sqrt(qnorm) * x.norm[id])
		if sim < exampleFloor {
			continue
		}
		for _, e := range x.tools[id] {
			near[e] = max(near[e], sim)
		}
	}
	return near
}
