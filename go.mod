module github.com/gofio/gofio

go 1.26.8

require (
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	gopkg.in/ini.v1 v1.68.0 // indirect
)
