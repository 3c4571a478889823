/** The button of a chat header picker; each adds its width and state colours. */
export const pickerTrigger =
  'inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:pointer-events-none data-[state=open]:bg-accent sm:max-w-xs'

/** A row of a chat header picker's menu. */
export const pickerItem =
  'relative flex cursor-default select-none items-start gap-2 rounded-md py-1.5 pl-2 pr-8 text-sm outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground'
