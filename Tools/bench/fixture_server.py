#!/usr/bin/env python3
"""Serves one venue's recordings (Fixtures/<venue>/routes.json) on 127.0.0.1, for timing a
peer (ccxt) against the same answers agg gets. Usage: fixture_server.py FIXTURE_DIR PORT"""
import fnmatch, http.server, json, sys, urllib.parse

root, port = sys.argv[1].rstrip('/') + '/', int(sys.argv[2])
routes = json.load(open(root + 'routes.json'))['routes']

def matches(route, path, query):
    if not fnmatch.fnmatchcase(path, route['path']):
        return False
    items = urllib.parse.parse_qs(query)
    return all(any(fnmatch.fnmatchcase(v, pattern) for v in items.get(name, []))
               for name, pattern in route.get('query', {}).items())

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path, _, query = self.path.partition('?')
        route = next((r for r in routes if matches(r, path, query)), None)
        body = open(root + route['file'], 'rb').read() if route else b'{}'
        self.send_response(route.get('status', 200) if route else 404)
        for name, value in (route or {}).get('headers', {}).items():
            self.send_header(name, value)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
