import URLSessionEngine

let s = await URLSessionEngine.support()
print(s)
