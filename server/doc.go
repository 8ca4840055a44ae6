// Package server is the HTTP API of go-textanalysis on top of
// [textanalysis.Analyzer]: routing for the ten operations (each analysis
// path as GET with query parameters and POST with a JSON body), FastAPI-
// compatible validation errors, the OpenAPI 3.0.2 document, the JSON docs
// index at "/", the HTML reference at /docs and its markdown versions.
//
// The ten operations are declared once, in the table in operations.go;
// routes, OpenAPI, docs and the index are built from it.
//
// A [Server] is an http.Handler and safe for concurrent use. Build it with
// [New] and serve it with [Server.ListenAndServe] or any http.Server.
//
//	an, _ := textanalysis.New(textanalysis.Options{})
//	srv, _ := server.New(server.Config{}, an)
//	log.Fatal(srv.ListenAndServe(ctx))
package server
