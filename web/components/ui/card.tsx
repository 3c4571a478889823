import type { ComponentProps } from 'react'
import { cn } from '../../lib/cn'

export const Card = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('rounded-xl border bg-card text-card-foreground shadow-sm', className)} {...props} />
)
export const CardHeader = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('flex flex-col gap-1.5 p-6', className)} {...props} />
)
export const CardTitle = ({ className, ...props }: ComponentProps<'h1'>) => (
  <h1 className={cn('text-xl font-semibold tracking-tight', className)} {...props} />
)
export const CardDescription = ({ className, ...props }: ComponentProps<'p'>) => (
  <p className={cn('text-sm text-muted-foreground', className)} {...props} />
)
export const CardContent = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('p-6 pt-0', className)} {...props} />
)
export const CardFooter = ({ className, ...props }: ComponentProps<'div'>) => (
  <div className={cn('flex items-center p-6 pt-0', className)} {...props} />
)
