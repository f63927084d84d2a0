package server

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestQuestions: an answer counts only for a question that was asked, about
// the same tool and arguments, once, before it expires. synctest's clock
// makes the expiry exact without waiting for it.
func TestQuestions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQuestions(time.Minute)
		n := q.ask("destroy\x00{}")
		assert.Regexp(t, `^q-[0-9a-f]{32}$`, n)
		assert.NotEqual(t, n, q.ask("destroy\x00{}"), "every question has its own nonce")
		assert.False(t, q.redeem("q-0123", "destroy\x00{}"), "a nonce never issued")
		assert.True(t, q.redeem(n, "destroy\x00{}"))
		assert.False(t, q.redeem(n, "destroy\x00{}"), "used once")

		n = q.ask(`destroy_entry` + "\x00" + `{"id":"a"}`)
		assert.False(t, q.redeem(n, `destroy_entry`+"\x00"+`{"id":"b"}`), "other arguments")
		assert.False(t, q.redeem(n, `destroy_entry`+"\x00"+`{"id":"a"}`), "a mismatch uses the question up")

		n = q.ask("destroy\x00{}")
		time.Sleep(time.Minute - time.Nanosecond)
		assert.True(t, q.redeem(n, "destroy\x00{}"), "just in time")
		n = q.ask("destroy\x00{}")
		time.Sleep(time.Minute)
		assert.False(t, q.redeem(n, "destroy\x00{}"), "expired")
	})
}

// TestQuestions_Bounded: open questions are bounded; the oldest go first.
func TestQuestions_Bounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQuestions(time.Hour)
		first := q.ask("a")
		time.Sleep(time.Second)
		for i := 0; i < maxQuestions; i++ {
			q.ask("b")
		}
		assert.Len(t, q.issued, maxQuestions)
		assert.False(t, q.redeem(first, "a"), "the oldest was dropped")
	})
}
