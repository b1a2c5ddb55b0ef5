function tf = matches(str, pattern, varargin)
% MATLAB's matches (R2019b): whole-text equality with any pattern, optionally ignoring case.
  ignore = numel(varargin) >= 2 && strcmpi(varargin{1}, 'IgnoreCase') && logical(varargin{2});
  if ~iscell(pattern)
    pattern = {pattern};
  end
  if ignore
    str = lower(str);
    pattern = lower(pattern);
  end
  tf = ismember(str, pattern);
end
