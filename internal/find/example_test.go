package find_test

import (
	"fmt"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/find"
)

// A tool that matches more of the request comes first, even where one
// word weighs more in another tool's name; a request of stop words is
// none.
func ExampleIndex_Rank() {
	idx := find.NewIndex([]*annotations.Tool{
		{Name: "ledger_list", Title: "List the ledger"},
		{Name: "ledger_view", Title: "View one entry", Description: "Shows a transaction with its categories."},
		{Name: "categories", Title: "Categories"},
	}, "mycli")
	for _, t := range idx.Rank("ledger categories") {
		fmt.Println(t.Name)
	}
	fmt.Println(find.HasWords("the of a"), find.HasWords("¿categorías?"))
	// Output:
	// ledger_view
	// categories
	// ledger_list
	// false true
}
