module github.com/typedpatch/typedpatch

go 1.26

require (
	github.com/fatih/structtag v1.2.0
	github.com/google/go-cmp v0.7.0
	github.com/spf13/pflag v1.0.10
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.5
	pgregory.net/rapid v1.3.0
	sigs.k8s.io/yaml v1.6.0
)

require go.yaml.in/yaml/v2 v2.4.2 // indirect
