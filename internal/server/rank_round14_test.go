package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAsksToKnow_QuestionAfterStatement: a request that tells what
// happened and ends asking how to act on it wants a tool that acts, as the
// question alone does (issue 28 item 5, round fourteen): "compré un
// ordenador para trabajar, ¿cómo lo apunto?" was read as a question that
// wants an answer, so every tool that writes was worth 0.7 of its match and
// the read-only prepare came first.
func TestAsksToKnow_QuestionAfterStatement(t *testing.T) {
	for q, want := range map[string]bool{
		"compré un ordenador para trabajar, ¿cómo lo apunto?":         false,
		"tengo una factura de un cliente alemán, ¿puedo importarla?":  false,
		"I paid the plumber 80 euros cash, how do I record it?":       false,
		"my bank sent a new statement, can you load it?":              false,
		"cuando cobro una factura, ¿tengo que apuntarla?":             true,
		"si ya no vivo en España, ¿sigo teniendo que hacer la renta?": true,
		"I moved abroad in June, do I still file here?":               true,
		"the 303 is filed, how much did I pay?":                       true,
	} {
		assert.Equal(t, want, asksToKnow(q), q)
	}
}
