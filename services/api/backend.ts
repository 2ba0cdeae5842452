/** What the HTTP layer needs from the cluster: calling an action by name. */
export interface Backend {
  call<T = unknown>(action: string, params: object): Promise<T>;
}
